import type { CamtAccount } from './camt053.ts';
import { compactOrIsoDate } from './dates.ts';
import { currencyExponent, decimalToMinor } from './money.ts';
import { fold } from './text.ts';
import type { StatementItem, StatementLine } from './types.ts';
import { child, childrenNamed, textAt, type XmlNode } from './xml-tree.ts';

interface Money {
  minor: bigint;
  currency: string;
}

function money(amt: XmlNode | undefined): Money | null | 'bad' {
  if (amt === undefined) return null;
  const currency = amt.attrs.Ccy?.trim().toUpperCase() ?? '';
  if (!/^[A-Z]{3}$/.test(currency)) return 'bad';
  const minor = decimalToMinor(amt.text.trim(), currencyExponent(currency));
  return minor === null ? 'bad' : { minor, currency };
}

const signOf = (ind: string | null): 1n | -1n | null => (ind === 'CRDT' ? 1n : ind === 'DBIT' ? -1n : null);

function date(node: XmlNode | undefined): string | null {
  const t = textAt(node, 'Dt') ?? textAt(node, 'DtTm');
  return t === null ? null : compactOrIsoDate(t);
}

/** Status: `<Sts>BOOK</Sts>` (02/04) or `<Sts><Cd>BOOK</Cd></Sts>` (08). */
function status(entry: XmlNode): string {
  return (textAt(entry, 'Sts', 'Cd') ?? textAt(entry, 'Sts') ?? 'BOOK').toUpperCase();
}

/** A detail's own amount: TxDtls/Amt (04+), else AmtDtls/TxAmt/Amt (02). */
function detailAmount(tx: XmlNode): Money | null | 'bad' {
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
function counterparty(
  tx: XmlNode | undefined,
  incoming: boolean,
  reversal: boolean,
): { name: string | null; iban: string | null } {
  const originalIncoming = reversal ? !incoming : incoming;
  const first = originalIncoming ? 'Dbtr' : 'Cdtr';
  const second = originalIncoming ? 'Cdtr' : 'Dbtr';
  return party(tx, first) ?? party(tx, second) ?? { name: null, iban: null };
}

function description(entry: XmlNode, tx: XmlNode | undefined, counterpartyName: string | null): string {
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
function fees(entry: XmlNode, currency: string): bigint | null {
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
function original(
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
function cardLastFour(cardTx: XmlNode | undefined): string | null {
  const pan = textAt(cardTx, 'Card', 'PlainCardData', 'Pan') ?? '';
  const digits = /(\d{4})$/.exec(pan);
  return digits?.[1] ?? null;
}

/**
 * One `Ntry` -> items. Batch decision: an entry with several TxDtls becomes one line per TxDtls when
 * every detail states its amount and the signed amounts sum exactly to the entry; each such line
 * gets the entry's reference with `/1`, `/2`... appended so it stays unique. Otherwise (no details,
 * one detail, or details that do not add up) the entry is one line with the entry's amount.
 */
export function entryToItems(entry: XmlNode, lineNumber: number, account: CamtAccount): StatementItem[] {
  const amount = money(child(entry, 'Amt'));
  const sign = signOf(textAt(entry, 'CdtDbtInd'));
  if (amount === null || amount === 'bad' || sign === null) {
    const shown = child(entry, 'Amt')?.text.trim() ?? '(none)';
    const ccy = child(entry, 'Amt')?.attrs.Ccy ?? '';
    if (/^\d+\.\d+$/.test(shown) && /^[A-Z]{3}$/.test(ccy)) {
      const reason = `entry ${lineNumber}: amount '${shown}' has more decimals than ${ccy} allows (${currencyExponent(ccy)})`;
      return [{ kind: 'rejected', lineNumber, reason }];
    }
    return [
      {
        kind: 'rejected',
        lineNumber,
        reason: `entry ${lineNumber}: amount '${shown}' with CdtDbtInd '${textAt(entry, 'CdtDbtInd') ?? ''}' is not an amount like 1234.56 with Ccy and CRDT/DBIT`,
      },
    ];
  }
  const bookedDate = date(child(entry, 'BookgDt')) ?? date(child(entry, 'ValDt'));
  if (bookedDate === null) {
    return [
      {
        kind: 'rejected',
        lineNumber,
        reason: `entry ${lineNumber}: no BookgDt or ValDt date like 2024-01-31`,
      },
    ];
  }
  const reversal = textAt(entry, 'RvslInd')?.toLowerCase() === 'true';
  const details = childrenNamed(entry, 'NtryDtls').flatMap((d) => childrenNamed(d, 'TxDtls'));
  const entryRef = textAt(entry, 'AcctSvcrRef') ?? textAt(entry, 'NtryRef');
  const base = {
    lineNumber,
    accountRef: account.ref,
    bookedDate,
    valueDate: date(child(entry, 'ValDt')),
    pending: status(entry) !== 'BOOK',
    ...(reversal ? { reversal: true } : {}),
  };

  const amounts = details.map((tx) => ({
    tx,
    m: detailAmount(tx),
    s: signOf(textAt(tx, 'CdtDbtInd')) ?? sign,
  }));
  const split =
    details.length > 1 &&
    amounts.every((a) => a.m !== null && a.m !== 'bad' && a.m.currency === amount.currency) &&
    amounts.reduce((sum, a) => sum + (a.m !== null && a.m !== 'bad' ? a.s * a.m.minor : 0n), 0n) ===
      sign * amount.minor;

  if (split) {
    const baseRef = entryRef ?? textAt(details[0], 'Refs', 'AcctSvcrRef');
    return amounts.map(({ tx, m, s }, i): StatementItem => {
      const minor = m !== null && m !== 'bad' ? s * m.minor : 0n;
      const cp = counterparty(tx, s > 0n, reversal);
      const line: StatementLine = {
        ...base,
        amountMinor: minor,
        currency: amount.currency,
        ...origin(original([child(tx, 'AmtDtls')], amount.currency, s)),
        description: description(entry, tx, cp.name),
        counterpartyName: cp.name,
        counterpartyIban: cp.iban,
        bankReference: baseRef === null ? null : `${baseRef}/${i + 1}`,
        cardLastFour: cardLastFour(child(tx, 'CardTx')) ?? cardLastFour(child(entry, 'CardTx')),
        feesMinor: i === 0 ? fees(entry, amount.currency) : null,
      };
      return { kind: 'line', line };
    });
  }
  const tx = details[0];
  const cp = counterparty(tx, sign > 0n, reversal);
  const line: StatementLine = {
    ...base,
    amountMinor: sign * amount.minor,
    currency: amount.currency,
    ...origin(original([child(entry, 'AmtDtls'), child(tx, 'AmtDtls')], amount.currency, sign)),
    description: description(entry, details.length === 1 ? tx : undefined, cp.name),
    counterpartyName: cp.name,
    counterpartyIban: cp.iban,
    bankReference: entryRef ?? textAt(tx, 'Refs', 'AcctSvcrRef'),
    cardLastFour: cardLastFour(child(entry, 'CardTx')) ?? cardLastFour(child(tx, 'CardTx')),
    feesMinor: fees(entry, amount.currency),
  };
  return [{ kind: 'line', line }];
}

function origin(o: { minor: bigint; currency: string } | null): {
  originalAmountMinor: bigint | null;
  originalCurrency: string | null;
} {
  return { originalAmountMinor: o?.minor ?? null, originalCurrency: o?.currency ?? null };
}
