import {
  cardLastFour,
  counterparty,
  date,
  description,
  detailAmount,
  fees,
  money,
  original,
  signOf,
  status,
} from './camt-fields.ts';
import type { CamtAccount } from './camt053.ts';
import { currencyExponent } from './money.ts';
import type { StatementItem, StatementLine } from './types.ts';
import { child, childrenNamed, textAt, type XmlNode } from './xml-tree.ts';

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
