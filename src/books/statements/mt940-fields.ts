import { expandYear, isoDate } from './dates.ts';
import { currencyExponent, decimalToMinor } from './money.ts';
import { fold } from './text.ts';

/** SWIFT text lines are at most 65 characters; a full line was cut, so the next one continues it directly. */
const SWIFT_LINE = 65;

export interface Line61 {
  valueDate: string;
  bookedDate: string;
  amountMinor: bigint;
  reversal: boolean;
  customerRef: string | null;
  bankRef: string | null;
  supplementary: string;
}

/**
 * `:61:` value date YYMMDD, optional entry date MMDD, mark C/D/RC/RD, optional funds code letter,
 * amount with decimal comma, type (N/S/F + 3), customer reference up to `//`, bank reference after it
 * (not cut at 16 characters: several banks write longer ones), supplementary details on the next lines.
 */
export function parse61(lines: string[], currency: string): Line61 | string {
  const first = lines[0] ?? '';
  const m = /^(\d{2})(\d{2})(\d{2})(\d{4})?(RC|RD|C|D)([A-Z])?(\d+,\d*)([NSF][A-Z0-9]{3})?(.*)$/.exec(first);
  if (m === null) {
    return `:61: '${first}' is not a statement line like 2401310131D12,34NTRFreference//bankref`;
  }
  const [, yy = '', mm = '', dd = '', entry, mark = '', , amountText = '', , rest = ''] = m;
  const valueDate = isoDate(expandYear(Number(yy)), Number(mm), Number(dd));
  if (valueDate === null) return `:61: value date '${yy}${mm}${dd}' is not a date YYMMDD`;
  const minor = decimalToMinor(amountText.replace(',', '.'), currencyExponent(currency));
  if (minor === null) return `:61: amount '${amountText}' is not an amount like 1234,56 in ${currency}`;
  const bookedDate = entry === undefined ? valueDate : entryDate(valueDate, entry);
  if (bookedDate === null) return `:61: entry date '${entry ?? ''}' is not a date MMDD`;
  // RC reverses a credit (money goes out again), RD reverses a debit (money comes back).
  const negative = mark === 'D' || mark === 'RC';
  const split = rest.indexOf('//');
  const customer = (split < 0 ? rest : rest.slice(0, split)).trim();
  let bankRef: string | null = split < 0 ? null : rest.slice(split + 2).trim() || null;
  const more = lines.slice(1).map((l) => l.trim());
  // A bank reference cut by a line break (ING writes `//00000000001` then `005`).
  if (
    bankRef !== null &&
    bankRef.length < 16 &&
    /^[A-Za-z0-9]+$/.test(more[0] ?? '') &&
    bankRef.length + (more[0] ?? '').length <= 16
  ) {
    bankRef += more.shift() ?? '';
  }
  return {
    valueDate,
    bookedDate,
    amountMinor: negative ? -minor : minor,
    reversal: mark.startsWith('R'),
    customerRef: customer === '' || customer === 'NONREF' ? null : customer,
    bankRef,
    supplementary: fold(more.join(' ')),
  };
}

/** The entry date MMDD takes the year that puts it nearest the value date (Dec 31 vs Jan 2 crosses a year). */
function entryDate(valueDate: string, mmdd: string): string | null {
  const year = Number(valueDate.slice(0, 4));
  const value = Date.parse(valueDate);
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const y of [year - 1, year, year + 1]) {
    const d = isoDate(y, Number(mmdd.slice(0, 2)), Number(mmdd.slice(2)));
    if (d === null) continue;
    const distance = Math.abs(Date.parse(d) - value);
    if (distance < bestDistance) {
      best = d;
      bestDistance = distance;
    }
  }
  return best;
}

export interface Info86 {
  description: string;
  counterpartyName: string | null;
  counterpartyIban: string | null;
}

const KEYS =
  'EREF|PREF|MARF|CSID|CNTP|REMI|RTRN|TRTP|IBAN|BIC|NAME|ORDP|BENM|ID|ADDR|ISDT|FX|PURP|ULTC|ULTD|EXCH|CHGS|RTYP|BUSP|SVCL|CODE|SUM|TRCD';

/**
 * `:86:` information: structured `/KEY/value` (ING, ABN AMRO: lines joined as they were cut), German
 * `NNN?00...?20...` subfields, or free text (SNS/ASN start it with the counterparty IBAN and name).
 */
export function parse86(rawLines: string[], tagLength: number): Info86 {
  const lines = rawLines.map((l, i) => (i === 0 ? l.slice(tagLength) : l));
  const head = (lines[0] ?? '').trim();
  // Structured lines are cut at fixed width: joined as they are, spaces at the cut included.
  if (/^\/[A-Z]{2,4}\//.test(head)) return structured(lines.join('').trim());
  if (/^\d{3}\?\d{2}/.test(head)) return german(lines.map((l) => l.trim()).join(''));
  let text = '';
  rawLines.forEach((raw, i) => {
    const content = lines[i] ?? '';
    text += content;
    if (raw.length < SWIFT_LINE) text += ' ';
  });
  const folded = fold(text);
  const party = /^([A-Z]{2}\d{2}[A-Z0-9]{10,30})\s+(.+)$/.exec(fold(head));
  return {
    description: folded,
    counterpartyIban: party?.[1] ?? null,
    counterpartyName: party?.[2] ?? null,
  };
}

function structured(text: string): Info86 {
  const re = new RegExp(`/(${KEYS})/`, 'g');
  const found: Array<{ key: string; start: number; end: number }> = [];
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    found.push({ key: m[1] ?? '', start: m.index, end: m.index + m[0].length });
    re.lastIndex = m.index + m[0].length - 1;
  }
  const values = new Map<string, string>();
  found.forEach((f, i) => {
    const value = text.slice(f.end, found[i + 1]?.start ?? text.length).replace(/\/+$/, '');
    if (!values.has(f.key)) values.set(f.key, value);
  });
  const cntp = values.get('CNTP')?.split('/');
  const remi = values.get('REMI') ?? '';
  const remiText = /^USTD\/\/?(.*)$/.exec(remi)?.[1] ?? /^STRD\/[A-Z]+\/(.*)$/.exec(remi)?.[1] ?? remi;
  const name = values.get('NAME') ?? cntp?.[2] ?? null;
  const iban = values.get('IBAN') ?? cntp?.[0] ?? null;
  return {
    description: fold(remiText) || fold(name ?? '') || fold(text),
    counterpartyName: name === null || fold(name) === '' ? null : fold(name),
    counterpartyIban: iban === null || iban.trim() === '' ? null : iban.trim(),
  };
}

/** German MT940 subfields: ?00 booking text, ?20-?29 and ?60-?63 purpose, ?31 account, ?32-?33 name. */
function german(text: string): Info86 {
  const parts = new Map<number, string>();
  for (const m of text.matchAll(/\?(\d{2})([^?]*)/g))
    parts.set(Number(m[1]), (parts.get(Number(m[1])) ?? '') + (m[2] ?? ''));
  const pick = (codes: number[]): string => codes.map((c) => parts.get(c) ?? '').join('');
  const purpose = fold(pick([20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 60, 61, 62, 63]));
  const name = fold(pick([32, 33]));
  const account = (parts.get(31) ?? '').trim();
  return {
    description: purpose || fold(parts.get(0) ?? '') || name,
    counterpartyName: name === '' ? null : name,
    counterpartyIban: account === '' ? null : account,
  };
}
