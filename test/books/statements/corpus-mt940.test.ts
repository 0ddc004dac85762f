import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { StatementLine } from '../../../src/books/statements/index.ts';
import { itWithSample } from '../../support/samples.ts';
import { cents, parseSample, pick, sampleStatement, sum } from './helpers.ts';

/**
 * Each message's :60F:/:60M: opening, :62F:/:62M: closing (null when the message has none) and its
 * number of :61: lines, read with regular expressions rather than the parser under test.
 */
function messages(file: string): Array<{ opening: bigint; closing: bigint | null; entries: number }> {
  const text = sampleStatement(file).toString('utf8');
  return text
    .split(/^:20:/m)
    .slice(1)
    .map((body) => {
      const bal = (tag: string): bigint | null => {
        const m = new RegExp(`^:${tag}[FM]:([CD])\\d{6}[A-Z]{3}([\\d,]+)`, 'm').exec(body);
        return m === null ? null : (m[1] === 'D' ? -1n : 1n) * cents(m[2] ?? '');
      };
      return { opening: bal('60') ?? 0n, closing: bal('62'), entries: (body.match(/^:61:/gm) ?? []).length };
    });
}

function assertBalances(file: string, lines: StatementLine[]): number {
  let at = 0;
  let checked = 0;
  for (const m of messages(file)) {
    const own = lines.slice(at, at + m.entries);
    at += m.entries;
    if (m.closing === null) continue;
    assert.equal(m.opening + sum(own), m.closing, `${file}: message ending at line ${at}`);
    checked++;
  }
  assert.equal(at, lines.length);
  return checked;
}

const KEYS: Array<keyof StatementLine> = [
  'lineNumber',
  'accountRef',
  'bookedDate',
  'valueDate',
  'amountMinor',
  'currency',
  'description',
  'counterpartyName',
  'counterpartyIban',
  'bankReference',
];

describe('MT940 corpus', () => {
  itWithSample(
    'statements/mt940-actual-fr-utf8.sta',
    'Actual data.sta: SWIFT blocks, /NAME/ /IBAN/ /REMI/, German ?-subfields, plain text',
    async () => {
      const { lines, rejected } = await parseSample('mt940-actual-fr-utf8.sta');
      assert.deepEqual(rejected, []);
      assert.equal(lines.length, 6);
      assert.deepEqual(pick(lines[0], KEYS), {
        lineNumber: 8,
        accountRef: 'FR7630006000011234567890189',
        bookedDate: '2025-08-01',
        valueDate: '2025-08-01',
        amountMinor: -4250n,
        currency: 'EUR',
        description: 'Facture 2025-0042',
        counterpartyName: "Boulangerie L'Étoile",
        counterpartyIban: 'FR1420041010050500013M02606',
        bankReference: 'BANKREF001',
      });
      assert.deepEqual(pick(lines[1], ['amountMinor', 'description', 'counterpartyName']), {
        amountMinor: 120000n,
        description: 'Salaire août 2025',
        counterpartyName: 'Employeur Acme SARL',
      });
      assert.deepEqual(pick(lines[2], ['amountMinor', 'description', 'counterpartyName']), {
        amountMinor: -8999n,
        description: 'Rechnung 4711',
        counterpartyName: 'MÜLLER GMBH',
      });
      assert.deepEqual(pick(lines[4], ['amountMinor', 'description']), {
        amountMinor: -2480n,
        description: 'A44?Librairie Gibert Joseph Virement en ligne',
      });
      assert.deepEqual(
        pick(lines[5], ['lineNumber', 'bookedDate', 'amountMinor', 'description', 'bankReference']),
        {
          lineNumber: 19,
          bookedDate: '2025-08-06',
          amountMinor: -3100n,
          description: 'B32?TREMBLAY, MARIE Paiement mobile',
          bankReference: 'BANKREF006',
        },
      );
      assert.equal(assertBalances('mt940-actual-fr-utf8.sta', lines), 1);
    },
  );

  itWithSample(
    'statements/mt940-oca-ing.940',
    'OCA ING: structured :86: cut anywhere, a bank reference cut by a line break, currency after the account',
    async () => {
      const { lines, rejected } = await parseSample('mt940-oca-ing.940');
      assert.deepEqual(rejected, []);
      assert.equal(lines.length, 8);
      assert.deepEqual(pick(lines[0], KEYS), {
        lineNumber: 9,
        accountRef: 'NL77INGB0574908765',
        bookedDate: '2014-02-20',
        valueDate: '2014-02-20',
        amountMinor: 156n,
        currency: 'EUR',
        description: 'EV10001REP1000000T1000',
        counterpartyName: 'ING BANK NV INZAKE WEB',
        counterpartyIban: 'NL32INGB0000012345',
        bankReference: '00000000001005',
      });
      assert.deepEqual(pick(lines[3], ['amountMinor', 'description', 'counterpartyName', 'bankReference']), {
        amountMinor: -114n,
        description: 'EV123REP123412T1234',
        counterpartyName: 'ING Bank N.V. inzake WeB',
        bankReference: '00000000001009',
      });
      assert.deepEqual(pick(lines[5], ['amountMinor', 'description', 'counterpartyName']), {
        amountMinor: -1275n,
        description: 'CONTRIBUTIE FEB 2014',
        counterpartyName: 'J.Janssen',
      });
      // The file cuts `ING` / `BANK NV` at the 65th character with no space on either side.
      assert.deepEqual(
        pick(lines[7], ['lineNumber', 'amountMinor', 'description', 'counterpartyName', 'bankReference']),
        {
          lineNumber: 51,
          amountMinor: -11900n,
          description: '1070123412341234',
          counterpartyName: 'INGBANK NV',
          bankReference: '00000000001012',
        },
      );
      assert.equal(assertBalances('mt940-oca-ing.940', lines), 1);
    },
  );

  itWithSample(
    'statements/mt940-oca-sns.940',
    'OCA SNS: three messages in envelopes, 65-column free text, IBAN and name first, no closing balance in the last',
    async () => {
      const { lines, rejected } = await parseSample('mt940-oca-sns.940');
      assert.deepEqual(rejected, []);
      assert.equal(lines.length, 8);
      assert.deepEqual(pick(lines[0], KEYS), {
        lineNumber: 6,
        accountRef: 'NL05SNSB0908244436',
        bookedDate: '2017-12-27',
        valueDate: '2017-12-27',
        amountMinor: -71313n,
        currency: 'EUR',
        description: 'NL49RABO0166416932 gerrits glas en schilderwerk Factuur 17227/248/20',
        counterpartyName: 'gerrits glas en schilderwerk',
        counterpartyIban: 'NL49RABO0166416932',
        // No `//` bank reference; the customer reference is the counterparty IBAN (18 characters where
        // the standard allows 16) and is not taken as the bank's reference.
        bankReference: null,
      });
      // A full 65-character line continues on the next: `...4XZJ4Z   M` + `CC:5411` is a merchant category code.
      assert.deepEqual(pick(lines[1], ['amountMinor', 'description', 'bankReference']), {
        amountMinor: -1018n,
        description:
          'Jumbo Wijchen B.V. >WIJCHEN 27.12.2017 13U38 KV005 4XZJ4Z MCC:5411 Contactloze betaling',
        bankReference: '228ohu/972795',
      });
      assert.deepEqual(pick(lines[5], ['lineNumber', 'amountMinor', 'bankReference']), {
        lineNumber: 50,
        amountMinor: 0n,
        bankReference: null,
      });
      assert.deepEqual(
        pick(lines[7], ['lineNumber', 'bookedDate', 'amountMinor', 'counterpartyName', 'counterpartyIban']),
        {
          lineNumber: 71,
          bookedDate: '2017-12-29',
          amountMinor: -3500n,
          counterpartyName: 'stichting derdengelden bucka',
          counterpartyIban: 'NL28DEUT0265186439',
        },
      );
      assert.equal(assertBalances('mt940-oca-sns.940', lines), 2);
    },
  );

  itWithSample(
    'statements/mt940-wolph-asnb.940',
    'WoLpH ASN: 31 daily messages, most without lines',
    async () => {
      const { lines, rejected } = await parseSample('mt940-wolph-asnb.940');
      assert.deepEqual(rejected, []);
      assert.equal(lines.length, 8);
      assert.deepEqual(pick(lines[0], KEYS), {
        lineNumber: 6,
        accountRef: 'NL81ASNB9999999999',
        bookedDate: '2020-01-01',
        valueDate: '2020-01-01',
        amountMinor: -6500n,
        currency: 'EUR',
        description: 'NL47INGB9999999999 hr gjlm paulissen Betaling sieraden',
        counterpartyName: 'hr gjlm paulissen',
        counterpartyIban: 'NL47INGB9999999999',
        bankReference: null,
      });
      assert.deepEqual(
        pick(lines[3], ['lineNumber', 'bookedDate', 'amountMinor', 'description', 'counterpartyName']),
        {
          lineNumber: 198,
          bookedDate: '2020-01-25',
          amountMinor: -165n,
          description: 'Kosten gebruik betaalrekening inclusief 1 betaalpas',
          counterpartyName: null,
        },
      );
      assert.deepEqual(pick(lines[7], ['lineNumber', 'bookedDate', 'amountMinor', 'description']), {
        lineNumber: 271,
        bookedDate: '2020-01-31',
        amountMinor: -90376n,
        description:
          'NL08ABNA9999999999 international card services 000000000000000000000000000000000 0000000000000000 Betaling aan ICS 99999999999 ICS Referentie: 2020-01-31 21:27 000000000000000',
      });
      assert.equal(assertBalances('mt940-wolph-asnb.940', lines), 31);
    },
  );

  itWithSample(
    'statements/mt940-wolph-jejik-abnamro.sta',
    'WoLpH ABN AMRO: no envelope, header lines, :28: and :60M:, amounts like `9,`, entry date before value date',
    async () => {
      const { lines, rejected } = await parseSample('mt940-wolph-jejik-abnamro.sta');
      assert.deepEqual(rejected, []);
      assert.equal(lines.length, 10);
      assert.deepEqual(pick(lines[0], KEYS), {
        lineNumber: 8,
        accountRef: '517852257',
        bookedDate: '2011-05-24',
        valueDate: '2011-05-24',
        amountMinor: -900n,
        currency: 'EUR',
        description:
          'GIRO 428428 KPN - DIGITENNE BETALINGSKENM. 0000000421886595314606715 BETREFT FACTUUR D.D. 20-05-2011 INCL. 1,44 BTW',
        counterpartyName: null,
        counterpartyIban: null,
        bankReference: null,
      });
      assert.deepEqual(pick(lines[1], ['bookedDate', 'valueDate', 'amountMinor']), {
        bookedDate: '2011-05-23',
        valueDate: '2011-05-21',
        amountMinor: -1159n,
      });
      assert.deepEqual(pick(lines[6], ['lineNumber', 'amountMinor', 'description']), {
        lineNumber: 23,
        amountMinor: -10700n,
        description: 'BEA NR:XXX1234 21.05.11/12.04 HANS ANDERS OPT./056 KAT,PAS999',
      });
      assert.deepEqual(pick(lines[9], ['lineNumber', 'bookedDate', 'amountMinor', 'description']), {
        lineNumber: 38,
        bookedDate: '2011-05-24',
        amountMinor: -1500n,
        description: '52.89.39.882 MYCOM DEN HAAG',
      });
      // This test file's balances are edited (3236,28 - 321,44 is 2914,84, not 876,84): the totals per message are checked instead.
      assert.equal(sum(lines.slice(0, 8)), -32144n);
      assert.equal(sum(lines.slice(8)), -2449n);
    },
  );
});
