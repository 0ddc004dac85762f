import { once } from 'node:events';
import { constants, createDeflate, deflateSync } from 'node:zlib';

/**
 * Hostile files, generated at the size asked for (nothing multi-megabyte is committed). Used by the
 * tests that prove each parser stays linear and bounded, and by `bench/hostile-files.ts`.
 */

const repeatTo = (head: string, unit: string, bytes: number, tail = ''): Buffer =>
  Buffer.from(
    head + unit.repeat(Math.max(1, Math.floor((bytes - head.length - tail.length) / unit.length))) + tail,
  );

/** OFX: `<A><![CDATA[` repeated, never closed (the security review's 38-second file at 1 MB). */
export function ofxUnclosedCdata(bytes: number): Buffer {
  return repeatTo('OFXHEADER:100\n<OFX>\n', '<A><![CDATA[\n', bytes);
}

/** OFX: leaves with a value followed by an unclosed CDATA opener, so nesting limits do not stop it early. */
export function ofxFlatUnclosedCdata(bytes: number): Buffer {
  return repeatTo('OFXHEADER:100\n<OFX>\n', '<A>x<![CDATA[\n', bytes);
}

/** OFX: aggregates opened and never closed, then end tags that match none of them. */
export function ofxDeepAggregates(bytes: number): Buffer {
  const half = Math.floor(bytes / 2);
  return Buffer.concat([repeatTo('OFXHEADER:100\n<OFX>\n', '<A>\n', half), repeatTo('', '</B>\n', half)]);
}

const CAMT_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct><Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2024-01-01</Dt></BookgDt><NtryDtls>';
const CAMT_TAIL = '</NtryDtls></Ntry></Stmt></BkToCstmrStmt></Document>';

/** CAMT.053: one `Ntry` holding millions of empty elements (5.1 million at 20 MiB). */
export function camtWideEntry(bytes: number): Buffer {
  return repeatTo(CAMT_HEAD, '<a/>', bytes, CAMT_TAIL);
}

/** CAMT.053: one `Ntry` whose text is one huge run (no element count, only bytes). */
export function camtLongTextEntry(bytes: number): Buffer {
  return repeatTo(`${CAMT_HEAD}<AddtlNtryInf>`, 'x', bytes, `</AddtlNtryInf>${CAMT_TAIL}`);
}

/** CAMT.053: elements nested inside one `Ntry` deeper than any real statement. */
export function camtDeepEntry(depth: number): Buffer {
  return Buffer.from(CAMT_HEAD + '<a>'.repeat(depth) + '</a>'.repeat(depth) + CAMT_TAIL);
}

/** Agreement draft in Markdown: one word as long as asked (no space to wrap at). */
export function longWordDraft(chars: number): string {
  return `# Agreement\n\n${'W'.repeat(chars)}\n`;
}

/**
 * A PDF whose object stream inflates to `inflatedBytes` (zeros deflate about 1000:1): what pdf-lib
 * inflated with no cap when it loaded the file.
 */
export function pdfObjectStreamBomb(inflatedBytes: number): Buffer {
  return pdfWithObjectStream(deflateSync(Buffer.alloc(inflatedBytes, 0x20), { level: 9 }));
}

/**
 * The same bomb at any size without holding the inflated bytes: deflated a MiB at a time (1 GiB
 * makes a 1 MB file), its object stream repeated `copies` times (10 copies: a 10 MB file that
 * inflates to 10 GiB).
 */
export async function pdfObjectStreamBombStreamed(inflatedBytes: number, copies = 1): Promise<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  const deflate = createDeflate({ level: 9, strategy: constants.Z_RLE });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const ended = once(deflate, 'end');
  for (let left = inflatedBytes; left > 0; left -= chunk.length) {
    if (!deflate.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) await once(deflate, 'drain');
  }
  deflate.end();
  await ended;
  return pdfWithObjectStream(Buffer.concat(out), copies);
}

function pdfWithObjectStream(body: Buffer, copies = 1): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const add = (b: Buffer | string): void => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buf);
    length += buf.length;
  };
  add('%PDF-1.7\n');
  offsets.push(length);
  add('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n');
  offsets.push(length);
  add('2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n');
  for (let copy = 0; copy < copies; copy++) {
    offsets.push(length);
    add(
      `${3 + copy} 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${body.length} >>\nstream\n`,
    );
    add(body);
    add('\nendstream\nendobj\n');
  }
  const xref = length;
  const size = 3 + copies;
  add(
    `xref\n0 ${size}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`,
  );
  add(`trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}
