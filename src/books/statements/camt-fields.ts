/** Reading the parts of one CAMT entry (Ntry) or detail (TxDtls); camt-entry.ts puts them together. */
import { compactOrIsoDate } from './dates.ts';
import { currencyExponent, decimalToMinor } from './money.ts';
import { fold } from './text.ts';
import { child, childrenNamed, textAt, type XmlNode } from './xml-tree.ts';

export interface Money {
  minor: bigint;
  currency: string;
}

export function money(amt: XmlNode | undefined): Money | null | 'bad' {
  if (amt === undefined) return null;
  const currency = amt.attrs.Ccy?.trim().toUpperCase() ?? '';
  if (!/^[A-Z]{3}$/.test(currency)) return 'bad';
  const minor = decimalToMinor(amt.text.trim(), currencyExponent(currency));
  return minor === null ? 'bad' : { minor, currency };
}

export const signOf = (ind: string | null): 1n | -1n | null =>
  ind === 'CRDT' ? 1n : ind === 'DBIT' ? -1n : null;

export function date(node: XmlNode | undefined): string | null {
  const t = textAt(node, 'Dt') ?? textAt(node, 'DtTm');
  return t === null ? null : compactOrIsoDate(t);
}

/** Status: `<Sts>BOOK</Sts>` (02/04) or `<Sts><Cd>BOOK</Cd></Sts>` (08). */
export function status(entry: XmlNode): string {
  return (textAt(entry, 'Sts', 'Cd') ?? textAt(entry, 'Sts') ?? 'BOOK').toUpperCase();
}

/** A detail's own amount: TxDtls/Amt (04+), else AmtDtls/TxAmt/Amt (02). */
export function detailAmount(tx: XmlNode): Money | null | 'bad' {
  return money(child(tx, 'Amt') ?? child(tx, 'AmtDtls', 'TxAmt', 'Amt'));
}

/** Party name and account of the counterparty; Pty wraps them in version 08. */
function party(
  tx: XmlNode | undefined,
  role: 'Dbtr' | 'Cdtr',
): { name: string | null; iban: string | null } | null {
  const parties = child(tx, 'RltdPties');
  const p = child(parties, role);
  const acct = child(parties, `${role}Acct`);
  if (p === undefined && acct === undefined) return null;
  const name = textAt(p, 'Nm') ?? textAt(p, 'Pty', 'Nm');
  const iban = textAt(acct, 'Id', 'IBAN') ?? textAt(acct, 'Id', 'Othr', 'Id');
  return { name: name === null ? null : fold(name), iban: iban?.replace(/\s/g, '') ?? null };
}

/**
 * The counterparty is the debtor of money coming in and the creditor of money going out. A reversal
 * keeps the parties of the original transaction, whose direction was the opposite. When the file
 * only names the other party, that one is taken (some banks fill only the party they know).
 */
export function counterparty(
  tx: XmlNode | undefined,
  incoming: boolean,
  reversal: boolean,
): { name: string | null; iban: string | null } {
  const originalIncoming = reversal ? !incoming : incoming;
  const first = originalIncoming ? 'Dbtr' : 'Cdtr';
  const second = originalIncoming ? 'Cdtr' : 'Dbtr';
  return party(tx, first) ?? party(tx, second) ?? { name: null, iban: null };
}

export function description(
  entry: XmlNode,
  tx: XmlNode | undefined,
  counterpartyName: string | null,
): string {
  const ustrd = childrenNamed(child(tx, 'RmtInf'), 'Ustrd')
    .map((u) => u.text)
    .join(' ');
  const own = fold(ustrd) || fold(textAt(tx, 'AddtlTxInf') ?? '');
  if (own !== '') return own;
  const creditorRef = childrenNamed(child(tx, 'RmtInf'), 'Strd')
    .map((strd) => textAt(strd, 'CdtrRefInf', 'Ref') ?? '')
    .join(' ');
  const parts = fold(`${textAt(entry, 'AddtlNtryInf') ?? ''} ${creditorRef}`);
  return parts || counterpartyName || fold(textAt(entry, 'BkTxCd', 'Prtry', 'Cd') ?? '');
}

/** Charges on the entry: v02 repeats Chrgs with Amt; v04+ has Chrgs/Rcrd/Amt (or TtlChrgsAndTaxAmt). */
export function fees(entry: XmlNode, currency: string): bigint | null {
  let total: bigint | null = null;
  for (const chrgs of childrenNamed(entry, 'Chrgs')) {
    const records = childrenNamed(chrgs, 'Rcrd');
    const items = records.length > 0 ? records : [chrgs];
    for (const r of items) {
      const m = money(child(r, 'Amt'));
      if (m === null || m === 'bad' || m.currency !== currency) continue;
      // Charges are taken from the account unless the file says they were credited.
      const sign = textAt(r, 'CdtDbtInd') === 'CRDT' ? 1n : -1n;
      total = (total ?? 0n) + sign * m.minor;
    }
    if (records.length === 0 && items.length === 1 && total === null) {
      const m = money(child(chrgs, 'TtlChrgsAndTaxAmt'));
      if (m !== null && m !== 'bad' && m.currency === currency) total = -m.minor;
    }
  }
  return total;
}

/** The amount before conversion: the first of InstdAmt, TxAmt, CntrValAmt in another currency. */
export function original(
  amtDtls: Array<XmlNode | undefined>,
  currency: string,
  sign: bigint,
): { minor: bigint; currency: string } | null {
  for (const d of amtDtls) {
    for (const kind of ['InstdAmt', 'TxAmt', 'CntrValAmt']) {
      const m = money(child(d, kind, 'Amt'));
      if (m !== null && m !== 'bad' && m.currency !== currency)
        return { minor: sign * m.minor, currency: m.currency };
    }
  }
  return null;
}

/** CardTx/Card/PlainCardData/Pan, masked (`XXXXXXXXXXXX4242`): its last four digits. */
export function cardLastFour(cardTx: XmlNode | undefined): string | null {
  const pan = textAt(cardTx, 'Card', 'PlainCardData', 'Pan') ?? '';
  const digits = /(\d{4})$/.exec(pan);
  return digits?.[1] ?? null;
}
