import { compactOrIsoDate } from './dates.ts';
import { currencyExponent, decimalToMinor, mulDivRound } from './money.ts';
import { fold, joinDistinct } from './text.ts';
import { StatementFileError, type StatementItem, type StatementLine } from './types.ts';
import { assertSafeXml } from './xml-tree.ts';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/**
 * HTML entities in values, decoded twice: some banks escape an already escaped value
 * (`TPAY &amp;lt;DEFTPYMT&amp;gt;` in the Actual Budget fixture means `TPAY <DEFTPYMT>`).
 */
export function decodeEntities(value: string): string {
  const once = (s: string): string =>
    s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X'))
        return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
      return ENTITIES[name.toLowerCase()] ?? whole;
    });
  return once(once(value));
}

/** Open aggregates at once: real files nest fewer than 10; the cap keeps end-tag lookups cheap. */
const MAX_DEPTH = 64;

/** Transaction fields by path inside STMTTRN: `TRNAMT`, `CURRENCY.CURSYM`, ... */
type Fields = Map<string, string>;

interface StatementContext {
  currency: string | null;
  account: string | null;
  card: boolean;
}

/**
 * OFX 1.x (SGML: leaf elements are not closed) and 2.x (XML) read by one tokenizer: a tag followed by
 * text is a leaf with that value; any other open tag is an aggregate, closed by its end tag (which
 * also closes unclosed leaves inside it). Each STMTTRN becomes a line when it closes.
 */
export async function* parseOfx(text: string): AsyncGenerator<StatementItem> {
  const bodyStart = text.search(/<OFX>/i);
  if (bodyStart < 0) throw new StatementFileError('malformed_file', 'the OFX file has no <OFX> element');
  if (/^\s*<\?xml/i.test(text)) assertSafeXml(text);
  // The CDATA alternative matches only the opener: its end is found with one forward-moving search
  // (`cdataEnd`), so an unclosed CDATA is not rescanned to the end of the file for every opener
  // (a lazy `[\s\S]*?` there made 1 MB of `<![CDATA[` take 38 s).
  const tokens = /<(\/?)([A-Za-z0-9._]+)\s*>|<!\[CDATA\[/g;
  tokens.lastIndex = bodyStart;
  const stack: string[] = [];
  const context: StatementContext = { currency: null, account: null, card: false };
  let txn: Fields | null = null;
  let txnLine = 0;
  let closedOfx = false;
  let lineNumber = 1;
  let counted = 0;
  /** The next `]]>` at or after the last search start; -1 once none is left in the file. */
  let cdataEnd = 0;
  const nextCdataEnd = (from: number): number => {
    if (cdataEnd >= 0 && cdataEnd < from) cdataEnd = text.indexOf(']]>', from);
    return cdataEnd;
  };
  const lineAt = (offset: number): number => {
    for (let i = text.indexOf('\n', counted); i >= 0 && i < offset; i = text.indexOf('\n', i + 1))
      lineNumber++;
    counted = Math.max(counted, offset);
    return lineNumber;
  };
  lineAt(bodyStart);
  for (let m = tokens.exec(text); m !== null; m = tokens.exec(text)) {
    if (m[2] === undefined) {
      // A CDATA section outside a value: skip past its end (or stop: nothing after it is markup).
      const end = nextCdataEnd(tokens.lastIndex);
      if (end < 0) break;
      tokens.lastIndex = end + 3;
      continue;
    }
    const closing = m[1] === '/';
    const name = (m[2] ?? '').toUpperCase();
    if (closing) {
      const at = stack.lastIndexOf(name);
      if (at < 0) continue; // the end tag of a leaf (OFX 2.x XML)
      stack.length = at;
      if (name === 'STMTTRN' && txn !== null) {
        yield toItem(txn, txnLine, context);
        txn = null;
      } else if (name === 'STMTRS' || name === 'CCSTMTRS') {
        context.currency = null;
        context.account = null;
      } else if (name === 'OFX') closedOfx = true;
      continue;
    }
    const valueEnd = text.indexOf('<', tokens.lastIndex);
    let raw = text.slice(tokens.lastIndex, valueEnd < 0 ? text.length : valueEnd);
    // OFX 2.x may wrap a value in CDATA: `<NAME><![CDATA[ALDI STORE]]></NAME>`.
    if (raw.trim() === '' && text.startsWith('<![CDATA[', valueEnd)) {
      const end = nextCdataEnd(valueEnd);
      if (end > 0) raw = text.slice(valueEnd + 9, end);
    }
    const value = raw.trim();
    if (value === '') {
      if (stack.length >= MAX_DEPTH) {
        throw new StatementFileError(
          'limit_exceeded',
          `the OFX file nests more than ${MAX_DEPTH} aggregates (statements nest fewer than 10)`,
        );
      }
      stack.push(name);
      if (name === 'STMTTRN') {
        txn = new Map();
        txnLine = lineAt(m.index);
      } else if (name === 'CCSTMTRS') context.card = true;
      else if (name === 'STMTRS') context.card = false;
      continue;
    }
    const decoded = decodeEntities(value);
    if (txn !== null) {
      const inner = stack.slice(stack.lastIndexOf('STMTTRN') + 1);
      txn.set([...inner, name].join('.'), decoded);
    } else if (name === 'CURDEF') context.currency = decoded.toUpperCase();
    else if (name === 'ACCTID' && (stack.at(-1) === 'BANKACCTFROM' || stack.at(-1) === 'CCACCTFROM')) {
      context.account = decoded;
    }
  }
  if (!closedOfx || txn !== null) {
    throw new StatementFileError('malformed_file', 'the OFX file ends before </OFX> (truncated file?)');
  }
}

/** `1,5` or `1.5` (the OFX spec allows either decimal symbol); no grouping. */
function ofxAmount(text: string, currency: string): bigint | null {
  const t = text.replace(/\s/g, '');
  return decimalToMinor(t.includes('.') ? t : t.replace(',', '.'), currencyExponent(currency));
}

/** A rate as an exact fraction: `1.0825` -> 10825/10000. */
function rate(text: string | undefined): [bigint, bigint] | null {
  const m = /^(\d+)(?:[.,](\d+))?$/.exec(text?.trim() ?? '');
  if (m === null) return null;
  const frac = m[2] ?? '';
  const num = BigInt(`${m[1]}${frac}`);
  return num === 0n ? null : [num, 10n ** BigInt(frac.length)];
}

function toItem(f: Fields, lineNumber: number, ctx: StatementContext): StatementItem {
  const reject = (reason: string): StatementItem => ({ kind: 'rejected', lineNumber, reason });
  const bookedDate = compactOrIsoDate(f.get('DTPOSTED') ?? '');
  if (bookedDate === null) return reject(`DTPOSTED '${f.get('DTPOSTED') ?? ''}' is not a date like 20240131`);
  const currency = ctx.currency ?? 'USD';
  // CURRENCY: the amount is in CURSYM (converted to CURDEF by CURRATE); ORIGCURRENCY: the amount is
  // already in CURDEF, converted from CURSYM. Either way the line is in CURDEF, the account's currency.
  const foreign = f.has('CURRENCY.CURSYM')
    ? 'CURRENCY'
    : f.has('ORIGCURRENCY.CURSYM')
      ? 'ORIGCURRENCY'
      : null;
  const foreignCurrency = foreign === null ? null : (f.get(`${foreign}.CURSYM`)?.toUpperCase() ?? null);
  const amountText = f.get('TRNAMT') ?? '';
  let amountMinor = ofxAmount(
    amountText,
    foreign === 'CURRENCY' && foreignCurrency !== null ? foreignCurrency : currency,
  );
  if (amountMinor === null)
    return reject(`TRNAMT '${amountText}' is not an amount like -1234.56 in ${currency}`);
  let originalAmountMinor: bigint | null = null;
  const r = rate(f.get(`${foreign}.CURRATE`));
  if (foreign !== null && foreignCurrency !== null && r !== null) {
    const scale = (from: string, to: string): [bigint, bigint] => [
      10n ** BigInt(currencyExponent(to)),
      10n ** BigInt(currencyExponent(from)),
    ];
    if (foreign === 'CURRENCY') {
      originalAmountMinor = amountMinor;
      const [tn, td] = scale(foreignCurrency, currency);
      amountMinor = mulDivRound(amountMinor, r[0] * tn, r[1] * td);
    } else {
      const [tn, td] = scale(currency, foreignCurrency);
      originalAmountMinor = mulDivRound(amountMinor, r[1] * tn, r[0] * td);
    }
  } else if (foreign === 'CURRENCY') {
    return reject(
      `the transaction is in ${foreignCurrency ?? '?'} without a CURRATE to convert it to ${currency}`,
    );
  }
  const name = f.get('NAME') ?? f.get('PAYEE.NAME') ?? null;
  const line: StatementLine = {
    lineNumber,
    accountRef: ctx.account,
    bookedDate,
    valueDate: compactOrIsoDate(f.get('DTAVAIL') ?? ''),
    amountMinor,
    currency,
    originalAmountMinor,
    originalCurrency: originalAmountMinor === null ? null : foreignCurrency,
    description: joinDistinct([name, f.get('MEMO')]),
    counterpartyName: name === null ? null : fold(name),
    counterpartyIban: null,
    bankReference: f.get('FITID') ?? null,
    pending: false,
    cardLastFour: ctx.card ? (/(\d{4})$/.exec(ctx.account ?? '')?.[1] ?? null) : null,
    feesMinor: null,
  };
  return { kind: 'line', line };
}
