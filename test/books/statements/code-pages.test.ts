import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { chooseCodePage } from '../../../src/books/statements/code-pages.ts';
import { parseBytes } from './helpers.ts';

// Files of our own, encoded here with iconv-lite: the same CSV text in the code pages banks use.
const POLISH = [
  'Date;Description;Amount;Currency',
  '2024-03-01;Płatność kartą ŻABKA Łódź;-12,50;PLN',
  '2024-03-02;Przelew przychodzący Świętokrzyska;1500,00;PLN',
  '2024-03-03;Opłata za prowadzenie rachunku;-5,00;PLN',
].join('\r\n');
const GERMAN = [
  'Buchungstag;Verwendungszweck;Betrag',
  '01.03.2024;Bäckerei Müller Straße;-3,20',
  '02.03.2024;Gehalt März;2500,00',
].join('\r\n');
const FRENCH = ['Date;Libellé;Montant', '01/03/2024;Achat épicerie Français à Genève;-8,90'].join('\r\n');

describe('8-bit statement text: the code page that decodes the file', () => {
  it('reads a CP852 (DOS Central European) CSV with its Polish letters', async () => {
    const { detection, lines, rejected } = await parseBytes(iconv.encode(POLISH, 'cp852'), 'wyciag.csv', {
      accountCurrency: 'PLN',
    });
    assert.deepEqual(rejected, []);
    assert.equal(detection.encoding, 'cp852');
    assert.deepEqual(
      lines.map((l) => [l.description, l.amountMinor]),
      [
        ['Płatność kartą ŻABKA Łódź', -1250n],
        ['Przelew przychodzący Świętokrzyska', 150000n],
        ['Opłata za prowadzenie rachunku', -500n],
      ],
    );
  });

  it('tells each code page apart by the text it makes', () => {
    const cases: Array<[string, string, string]> = [
      [POLISH, 'cp852', 'cp852'],
      [POLISH, 'windows1250', 'windows-1250'],
      [POLISH, 'iso88592', 'iso-8859-2'],
      [GERMAN, 'windows1252', 'latin-1'],
      [GERMAN, 'cp850', 'cp850'],
      [GERMAN, 'cp437', 'cp850'], // ä ü ß é are at the same bytes in CP437 and CP850
      [FRENCH, 'cp850', 'cp850'],
      [FRENCH, 'iso88591', 'latin-1'],
    ];
    for (const [text, encoding, expected] of cases) {
      assert.equal(chooseCodePage(iconv.encode(text, encoding)), expected, `${encoding}`);
    }
  });

  it('an ISO-8859-15 file with Š and ž decodes them, not Windows-1252 symbols', async () => {
    const text = 'Date;Description;Amount\r\n2024-03-01;Paiement Šárka Žižková;-4,00\r\n';
    const { detection, lines } = await parseBytes(iconv.encode(text, 'iso885915'), 'releve.csv');
    assert.equal(detection.encoding, 'iso-8859-15');
    assert.equal(lines[0]?.description, 'Paiement Šárka Žižková');
  });
});
