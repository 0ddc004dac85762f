/**
 * Generated statements (tests and bench/statement-import.ts): `count` lines over a year, every
 * line unique by reference, amounts spread over money in and out. The dates cycle through the year
 * line by line unless `chronological` (as banks print statements: dates ascending, `count` lines
 * spread evenly over the year).
 */
export interface GeneratedOptions {
  chronological?: boolean;
}

/** The date of line `index` of `count`. */
function dayOf(count: number, options: GeneratedOptions): (index: number) => string {
  return (index) => {
    const offset = options.chronological ? Math.floor((index * 365) / Math.max(1, count)) : index % 365;
    return new Date(Date.UTC(2026, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
  };
}

function amountCents(index: number): number {
  const cents = ((index * 7919) % 250_000) + 1;
  return index % 5 === 0 ? cents : -cents;
}

export function* generatedCsvChunks(count: number, options: GeneratedOptions = {}): Generator<string> {
  const day = dayOf(count, options);
  yield 'Date,Description,Amount,Reference\n';
  let chunk = '';
  for (let i = 0; i < count; i += 1) {
    const cents = amountCents(i);
    const abs = Math.abs(cents);
    chunk += `${day(i)},Merchant ${i % 997} order ${i},${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')},R${i}\n`;
    if (chunk.length > 65_536) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

export function generatedCsv(count: number, options: GeneratedOptions = {}): Buffer {
  return Buffer.from([...generatedCsvChunks(count, options)].join(''), 'utf8');
}

/** A compact entry (about 160 bytes), so 100,000 of them stay under the 20 MiB import limit. */
function camtEntry(i: number, day: (index: number) => string): string {
  const cents = amountCents(i);
  const abs = Math.abs(cents);
  const amount = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${cents < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>${day(i)}</Dt></BookgDt><AcctSvcrRef>S${i}</AcctSvcrRef><AddtlNtryInf>Shop ${i % 997} #${i}</AddtlNtryInf></Ntry>\n`;
}

const CAMT_HEAD = `<?xml version="1.0" encoding="utf-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>GEN</MsgId><CreDtTm>2026-12-31T00:00:00</CreDtTm></GrpHdr><Stmt><Id>GEN-1</Id><CreDtTm>2026-12-31T00:00:00</CreDtTm><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
`;
const CAMT_TAIL = '</Stmt></BkToCstmrStmt></Document>\n';

export function* generatedCamtChunks(
  count: number,
  options: { truncate?: boolean } & GeneratedOptions = {},
): Generator<string> {
  const day = dayOf(count, options);
  yield CAMT_HEAD;
  let chunk = '';
  for (let i = 0; i < count; i += 1) {
    chunk += camtEntry(i, day);
    if (chunk.length > 65_536) {
      yield chunk;
      chunk = '';
    }
  }
  // A truncated file ends in the middle of an entry.
  yield options.truncate ? `${chunk}<Ntry><NtryRef>cut` : `${chunk}${CAMT_TAIL}`;
}

export function generatedCamt(
  count: number,
  options: { truncate?: boolean } & GeneratedOptions = {},
): Buffer {
  return Buffer.from([...generatedCamtChunks(count, options)].join(''), 'utf8');
}
