import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseStatement, StatementFileError } from '../../../src/books/statements/index.ts';
import {
  camtDeepEntry,
  camtLongTextEntry,
  camtWideEntry,
  ofxDeepAggregates,
  ofxFlatUnclosedCdata,
  ofxUnclosedCdata,
} from '../../support/hostile-files.ts';
import { generatedCamt } from '../fixtures.ts';
import { parseBytes, sampleStatement } from './helpers.ts';

function fileError(code: StatementFileError['code'], messagePart?: RegExp): (e: unknown) => boolean {
  return (e: unknown) => {
    assert.ok(e instanceof StatementFileError, `expected StatementFileError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (messagePart !== undefined) assert.match(e.message, messagePart);
    return true;
  };
}

const half = (b: Buffer): Buffer => b.subarray(0, Math.floor(b.length / 2));

describe('bad and hostile files', () => {
  it('an empty file, and one of blank lines', async () => {
    await assert.rejects(parseBytes(Buffer.alloc(0), 'a.csv'), fileError('empty_file'));
    await assert.rejects(parseBytes(Buffer.from('\n  \r\n\t\n'), 'a.ofx'), fileError('empty_file'));
  });

  it('a CAMT file cut in half: the entries before the cut, then malformed_file', async () => {
    const parse = parseStatement({
      bytes: half(generatedCamt(16)),
      fileName: 'x.xml',
      mediaType: 'application/xml',
      accountCurrency: 'EUR',
      accountKind: 'checking',
    });
    let seen = 0;
    await assert.rejects(
      (async () => {
        for await (const _ of parse.items) seen++;
      })(),
      fileError('malformed_file', /truncated/),
    );
    assert.ok(seen > 0 && seen < 16, `items before the cut: ${seen}`);
  });

  it('OFX 1.x SGML and OFX 2.x XML cut in half are malformed_file', async () => {
    await assert.rejects(
      parseBytes(half(sampleStatement('ofx1-ofxparse-checking.ofx')), 'x.ofx'),
      fileError('malformed_file', /truncated/),
    );
    await assert.rejects(
      parseBytes(half(sampleStatement('ofx2-ofxparse-suncorp.ofx')), 'x.ofx'),
      fileError('malformed_file'),
    );
  });

  it('a file whose content is not what its name says', async () => {
    await assert.rejects(
      parseBytes(sampleStatement('camt053-genkgo-multi-statement.xml'), 'statement.csv'),
      fileError('format_mismatch', /CSV.*CAMT/),
    );
    await assert.rejects(
      parseBytes(sampleStatement('csv-sparkasse-camt-csv.csv'), 'statement.xml'),
      fileError('format_mismatch'),
    );
    await assert.rejects(
      parseBytes(sampleStatement('ofx1-actual-utf8.qfx'), 'statement.qif'),
      fileError('format_mismatch', /QIF.*OFX/),
    );
    await assert.rejects(
      parseBytes(sampleStatement('mt940-wolph-jejik-abnamro.sta'), 'statement', { mediaType: 'text/csv' }),
      fileError('format_mismatch', /MT940/),
    );
    await assert.rejects(
      parseBytes(Buffer.from('<?xml version="1.0"?><invoice/>'), 'x.xml'),
      fileError('format_mismatch', /neither/),
    );
    await assert.rejects(
      parseBytes(Buffer.from('hello world'), 'notes.txt'),
      fileError('unsupported_format'),
    );
  });

  it('bytes that are neither UTF-8 nor Latin-1 text', async () => {
    const binary = Buffer.concat([
      Buffer.from('Date,Amount\n2024-01-01,'),
      Buffer.from([0x00, 0x01, 0x02, 0xff]),
      Buffer.from('\n'),
    ]);
    await assert.rejects(parseBytes(binary, 'x.csv'), fileError('bad_encoding', /control character/));
    // 0x81 is undefined in Windows-1252 and invalid as UTF-8.
    const undefinedByte = Buffer.concat([
      Buffer.from('Date,Description,Amount\n2024-01-01,'),
      Buffer.from([0x81]),
      Buffer.from(',1.00\n'),
    ]);
    await assert.rejects(parseBytes(undefinedByte, 'x.csv'), fileError('bad_encoding', /0x81/));
    // UTF-16 without a byte order mark is full of NUL bytes.
    await assert.rejects(
      parseBytes(Buffer.from('Date,Amount\n2024-01-01,1.00\n', 'utf16le'), 'x.csv'),
      fileError('bad_encoding'),
    );
  });

  it('an XML entity bomb (billion laughs) is refused before any expansion', async () => {
    const lol = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE Document [',
      '<!ENTITY lol "lol">',
      ...Array.from(
        { length: 9 },
        (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
      ),
      ']>',
      '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Ntry><AddtlNtryInf>&lol9;</AddtlNtryInf></Ntry></Stmt></BkToCstmrStmt></Document>',
    ].join('\n');
    const before = process.memoryUsage().heapUsed;
    await assert.rejects(parseBytes(Buffer.from(lol), 'bomb.xml'), fileError('unsafe_xml'));
    assert.ok(process.memoryUsage().heapUsed - before < 50 * 1024 * 1024);
  });

  it('XXE: an external entity is refused and /etc/passwd is never read into the result', async () => {
    const xxe = `<?xml version="1.0"?>
<!DOCTYPE Document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>
<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2024-01-01</Dt></BookgDt>
<AddtlNtryInf>&xxe;</AddtlNtryInf></Ntry></Stmt></BkToCstmrStmt></Document>`;
    await assert.rejects(parseBytes(Buffer.from(xxe), 'xxe.xml'), (e: unknown) => {
      assert.ok(e instanceof StatementFileError && e.code === 'unsafe_xml');
      assert.doesNotMatch(e.message, /root:/);
      return true;
    });
    // An OFX 2 (XML) file with a DOCTYPE is refused the same way.
    const ofx = `<?xml version="1.0"?>\n<!DOCTYPE OFX [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<?OFX OFXHEADER="200"?>\n<OFX><BANKMSGSRSV1></BANKMSGSRSV1></OFX>`;
    await assert.rejects(parseBytes(Buffer.from(ofx), 'x.ofx'), fileError('unsafe_xml'));
    // Without a DOCTYPE an undeclared entity is simply not well-formed XML.
    const undeclared = xxe.replace(/<!DOCTYPE[^\n]*\n/, '');
    await assert.rejects(parseBytes(Buffer.from(undeclared), 'x.xml'), fileError('malformed_file'));
  });

  it('a 20 MB single line is refused fast, before it is decoded into a string', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024, 0x61);
    Buffer.from('Date,Description,Amount\n').copy(big);
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    await assert.rejects(parseBytes(big, 'big.csv'), fileError('line_too_long', /line 2/));
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 2000, `took ${elapsed} ms`);
    // A decoded copy would be 40 MB of heap (UTF-16 string); the scan allocates next to nothing.
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 10 * 1024 * 1024);
  });

  it('a large file with CR-only line ends (old Mac exports) is many short lines, not a long one', async () => {
    const rows = Array.from({ length: 60000 }, (_, i) => `2024-01-01,row ${i},-1.00`);
    const { lines, rejected } = await parseBytes(
      Buffer.from(`Date,Description,Amount\r${rows.join('\r')}\r`),
      'mac.csv',
    );
    assert.deepEqual([lines.length, rejected.length], [60000, 0]);
    assert.equal(lines.at(-1)?.lineNumber, 60001);
  });

  it('amounts that are not money become rejected lines with their line numbers; the rest is read', async () => {
    const csv = [
      'Date,Description,Amount',
      '2024-01-01,ok,-12.50',
      '2024-01-02,letters,abc',
      '2024-01-03,bad grouping,"12,34.5"',
      '2024-01-04,exponent,1e5',
      '2024-01-05,too many decimals,1.234',
      '2024-13-45,bad date,1.00',
      '2024-01-06,empty,',
      '2024-01-07,ok too,"1,000.00"',
    ].join('\n');
    const { lines, rejected } = await parseBytes(Buffer.from(csv), 'x.csv', { accountCurrency: 'USD' });
    assert.deepEqual(
      lines.map((l) => [l.lineNumber, l.amountMinor]),
      [
        [2, -1250n],
        [9, 100000n],
      ],
    );
    assert.deepEqual(rejected, [
      { lineNumber: 3, reason: "amount 'abc' is not a number like 1,234.56" },
      { lineNumber: 4, reason: "amount '12,34.5' is not a number like 1,234.56" },
      { lineNumber: 5, reason: "amount '1e5' is not a number like 1,234.56" },
      { lineNumber: 6, reason: "amount '1.234' has more decimals than USD allows (2)" },
      { lineNumber: 7, reason: "date '2024-13-45' is not a date like yyyy-MM-dd" },
      { lineNumber: 8, reason: "amount '' is not a number like 1,234.56" },
    ]);
  });

  it('a money column with no amount in it at all is a file error, not a file of rejected lines', async () => {
    const csv = Buffer.from('Date,Description,Amount\n2024-01-01,a,n/a\n2024-01-02,b,pending\n');
    await assert.rejects(
      parseBytes(csv, 'x.csv'),
      fileError('malformed_file', /amount column \(Amount\) holds no amounts/),
    );
  });

  it('bad lines in OFX, MT940 and QIF are rejected with reasons, the rest is read', async () => {
    const ofx = sampleStatement('ofx1-ofxparse-bank-medium.ofx')
      .toString('latin1')
      .replace('<TRNAMT>-316.67', '<TRNAMT>-3a6.67');
    const o = await parseBytes(Buffer.from(ofx, 'latin1'), 'x.ofx');
    assert.equal(o.lines.length, 2);
    assert.deepEqual(o.rejected, [
      { lineNumber: 16, reason: "TRNAMT '-3a6.67' is not an amount like -1234.56 in CAD" },
    ]);

    const mt = sampleStatement('mt940-actual-fr-utf8.sta')
      .toString('utf8')
      .replace(':61:2508040804D15,00', ':61:2508040804D15.00');
    const m = await parseBytes(Buffer.from(mt), 'x.sta');
    assert.equal(m.lines.length, 5);
    assert.equal(m.rejected[0]?.lineNumber, 14);
    assert.match(m.rejected[0]?.reason ?? '', /is not a statement line like/);

    const qif =
      '!Type:Bank\nD31/31/2024\nT-1.00\nPBad\n^\nD1/2/2024\nTtwelve\nPWorse\n^\nD1/3/2024\nT-2.00\nPGood\n^\n';
    const q = await parseBytes(Buffer.from(qif), 'x.qif', { accountCurrency: 'USD' });
    assert.deepEqual(
      q.lines.map((l) => [l.bookedDate, l.amountMinor]),
      [['2024-01-03', -200n]],
    );
    assert.deepEqual(
      q.rejected.map((r) => r.lineNumber),
      [2, 6],
    );
    assert.match(q.rejected[0]?.reason ?? '', /not a QIF date/);
    assert.match(q.rejected[1]?.reason ?? '', /not a number like/);
  });

  it('a CSV header with no recognisable columns names what it saw and what it knows', async () => {
    const csv = Buffer.from('Foo;Bar;Baz\n1;2;3\n');
    await assert.rejects(
      parseBytes(csv, 'x.csv'),
      fileError('unknown_columns', /headers seen: Foo, Bar, Baz.*date: booking date/s),
    );
    await assert.rejects(
      parseBytes(csv, 'x.csv', { mapping: { date: 'Datum', amount: 'Betrag', description: 'Text' } }),
      fileError('unknown_columns', /Datum, Betrag, Text/),
    );
  });

  // Stall guards, not speed assertions: before the fixes these took minutes to hours (quadratic),
  // after they take well under a second; the test timeout only stops a regression from hanging CI.
  it('OFX: 2 MB of unclosed CDATA ends in a stable code, read in one pass', { timeout: 20_000 }, async () => {
    await assert.rejects(
      parseBytes(ofxUnclosedCdata(2 * 1024 * 1024), 'x.ofx'),
      fileError('malformed_file', /truncated/),
    );
    await assert.rejects(
      parseBytes(ofxFlatUnclosedCdata(2 * 1024 * 1024), 'x.ofx'),
      fileError('malformed_file', /truncated/),
    );
    await assert.rejects(
      parseBytes(ofxDeepAggregates(2 * 1024 * 1024), 'x.ofx'),
      fileError('limit_exceeded'),
    );
  });

  it('OFX 2.x CDATA values are still read, also after an unclosed one would have been', async () => {
    const ofx = `<?xml version="1.0"?>\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR</CURDEF><BANKTRANLIST>
<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20240105</DTPOSTED><TRNAMT>-1.50</TRNAMT><FITID>1</FITID><NAME><![CDATA[ALDI <STORE>]]></NAME></STMTTRN>
<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20240106</DTPOSTED><TRNAMT>-2.50</TRNAMT><FITID>2</FITID><NAME><![CDATA[LIDL]]></NAME></STMTTRN>
</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;
    const { lines } = await parseBytes(Buffer.from(ofx), 'x.ofx');
    assert.deepEqual(
      lines.map((l) => [l.description, l.amountMinor]),
      [
        ['ALDI <STORE>', -150n],
        ['LIDL', -250n],
      ],
    );
  });

  it('CAMT: one entry of a million empty elements fails with limit_exceeded instead of building them', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    await assert.rejects(
      parseBytes(camtWideEntry(4 * 1024 * 1024), 'x.xml'),
      fileError('limit_exceeded', /more than 10000 elements/),
    );
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 100 * 1024 * 1024);
    await assert.rejects(
      parseBytes(camtLongTextEntry(3 * 1024 * 1024), 'x.xml'),
      fileError('limit_exceeded', /characters/),
    );
    await assert.rejects(
      parseBytes(camtDeepEntry(500), 'x.xml'),
      fileError('limit_exceeded', /deeper than 64/),
    );
  });
});
