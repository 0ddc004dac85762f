import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decimalToMinor } from '../../../src/receipts/extraction/money.ts';
import { sniffType } from '../../../src/receipts/extraction/sniff.ts';
import { amountsIn, datesIn } from '../../../src/receipts/extraction/text/values.ts';
import { ExtractionFailure } from '../../../src/receipts/extraction/types.ts';
import { parseXml } from '../../../src/receipts/extraction/xml.ts';
import { find, pathOf, textOf } from '../../../src/receipts/extraction/xml-query.ts';

const failsWith = (code: string, run: () => unknown) =>
  assert.throws(run, (err) => err instanceof ExtractionFailure && err.code === code);

describe('receipts extraction: XML reader', () => {
  it('matches by local name whatever the prefix, decodes the predefined entities and CDATA', () => {
    const root = parseXml(
      '<?xml version="1.0"?><a:Invoice xmlns:a="urn:x" xmlns:b="urn:y"><b:Name>A &amp; B &#x20AC;&#8364;</b:Name><b:Note><![CDATA[<raw>]]></b:Note><b:Name>2</b:Name></a:Invoice>',
    );
    assert.equal(root.local, 'Invoice');
    assert.equal(root.ns, 'urn:x');
    assert.equal(textOf(find(root, 'Name')), 'A & B €€');
    assert.equal(textOf(find(root, 'Note')), '<raw>');
    const second = root.children[2];
    assert.ok(second);
    assert.equal(pathOf(second), '/a:Invoice/b:Name[2]');
  });

  it('refuses DOCTYPE, ENTITY and undeclared entities', () => {
    failsWith('unsafe_xml', () => parseXml('<!DOCTYPE x><x/>'));
    failsWith('unsafe_xml', () => parseXml('<x><!ENTITY a "b"></x>'));
    failsWith('unsafe_xml', () => parseXml('<x>&custom;</x>'));
  });

  it('reports malformed XML as corrupt', () => {
    failsWith('corrupt_file', () => parseXml('<a><b></a>'));
    failsWith('corrupt_file', () => parseXml('<a>'));
    failsWith('corrupt_file', () => parseXml('<a/><b/>'));
  });
});

describe('receipts extraction: money and text values', () => {
  it('turns decimals into exact minor units, refusing digits below the minor unit', () => {
    assert.equal(decimalToMinor('1234.5', 'EUR'), 123450n);
    assert.equal(decimalToMinor('-0.01', 'EUR'), -1n);
    assert.equal(decimalToMinor('100', 'JPY'), 100n);
    assert.equal(decimalToMinor('1.234', 'KWD'), 1234n);
    assert.equal(decimalToMinor('1.2300', 'EUR'), 123n);
    assert.equal(decimalToMinor('1.2345', 'EUR'), null);
    assert.equal(decimalToMinor('1e3', 'EUR'), null);
  });

  it('reads amounts in English, German, French and Swiss notation', () => {
    const values = (line: string) => amountsIn(line).map((a) => a.value);
    assert.deepEqual(values('Total  £1,234.56'), [123456n]);
    assert.deepEqual(values('Summe 1.234,56 €'), [123456n]);
    assert.deepEqual(values('Total TTC 1 234,56 €'), [123456n]);
    assert.deepEqual(values("Total CHF 1'234.50"), [123450n]);
    assert.deepEqual(values('Deposit paid  -100.00'), [-10000n]);
    assert.deepEqual(values('MwSt 19 %   20,00   3,80'), [2000n, 380n]);
    assert.deepEqual(values('45.20 L x 1.789 /L'), [4520n]);
  });

  it('reads dates in numeric and named-month forms', () => {
    const first = (line: string, us = false) => datesIn(line, us)[0]?.value;
    assert.equal(first('Datum: 15.03.2024'), '2024-03-15');
    assert.equal(first('Date: 03/04/2024'), '2024-04-03');
    assert.equal(first('Date: 03/04/2024', true), '2024-03-04');
    assert.equal(first('Date: 13/04/2024', true), '2024-04-13');
    assert.equal(first('Invoice date: 1 April 2024'), '2024-04-01');
    assert.equal(first('Invoice date: October 3, 2024'), '2024-10-03');
    assert.equal(first('Rechnungsdatum: 15. März 2024'), '2024-03-15');
    assert.equal(first('Date : 1er août 2024'), '2024-08-01');
    assert.equal(first('2024-02-30'), undefined);
  });
});

describe('receipts extraction: type sniffing', () => {
  const pdf = Buffer.from('%PDF-1.7\n...\n%%EOF\n');
  it('decides by the bytes at offset 0 and checks name and media type against them', () => {
    assert.equal(sniffType(pdf, 'r.pdf', 'application/pdf'), 'pdf');
    assert.equal(sniffType(pdf, 'r', 'application/octet-stream'), 'pdf');
    assert.equal(
      sniffType(Buffer.from('<?xml version="1.0"?><a/>'), 'a.xml', 'application/xml; charset=utf-8'),
      'xml',
    );
    failsWith('type_mismatch', () => sniffType(pdf, 'r.png', 'application/pdf'));
    failsWith('type_mismatch', () => sniffType(pdf, 'r.pdf', 'image/png'));
    failsWith('unsupported_type', () => sniffType(pdf, 'r.docx', 'application/pdf'));
  });
});
