/**
 * Generated statements (tests and bench/statement-import.ts): `count` lines over a year, every
 * line unique by reference, amounts spread over money in and out.
 */

function day(index: number): string {
  return new Date(Date.UTC(2026, 0, 1) + (index % 365) * 86_400_000).toISOString().slice(0, 10);
}

function amountCents(index: number): number {
  const cents = ((index * 7919) % 250_000) + 1;
  return index % 5 === 0 ? cents : -cents;
}

export function* generatedCsvChunks(count: number): Generator<string> {
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

export function generatedCsv(count: number): Buffer {
  return Buffer.from([...generatedCsvChunks(count)].join(''), 'utf8');
}

/** A compact entry (about 160 bytes), so 100,000 of them stay under the 20 MiB import limit. */
function camtEntry(i: number): string {
  const cents = amountCents(i);
  const abs = Math.abs(cents);
  const amount = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${cents < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>${day(i)}</Dt></BookgDt><AcctSvcrRef>S${i}</AcctSvcrRef><AddtlNtryInf>Shop ${i % 997} #${i}</AddtlNtryInf></Ntry>\n`;
}

const CAMT_HEAD = `<?xml version="1.0" encoding="utf-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>GEN</MsgId><CreDtTm>2026-12-31T00:00:00</CreDtTm></GrpHdr><Stmt><Id>GEN-1</Id><CreDtTm>2026-12-31T00:00:00</CreDtTm><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
`;
const CAMT_TAIL = '</Stmt></BkToCstmrStmt></Document>\n';

export function* generatedCamtChunks(count: number, options: { truncate?: boolean } = {}): Generator<string> {
  yield CAMT_HEAD;
  let chunk = '';
  for (let i = 0; i < count; i += 1) {
    chunk += camtEntry(i);
    if (chunk.length > 65_536) {
      yield chunk;
      chunk = '';
    }
  }
  // A truncated file ends in the middle of an entry.
  yield options.truncate ? `${chunk}<Ntry><NtryRef>cut` : `${chunk}${CAMT_TAIL}`;
}

export function generatedCamt(count: number, options: { truncate?: boolean } = {}): Buffer {
  return Buffer.from([...generatedCamtChunks(count, options)].join(''), 'utf8');
}
