// The exchange rates a matching run hands the engine (decision 491): the stored reference tables
// around the dates of the foreign charges being scored, and the rates implied by the
// organization's own confirmed foreign matches. Loaded only when a pair in two currencies without
// the bank's original amount is in the run; the engine itself never reads the database.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { asMinor } from '../../db/values.ts';
import { iso4217MinorUnit } from '../../lib/currencies.ts';
import type { ImpliedRate } from '../matching/reference-rates.ts';
import type { MatchSettings, ReceiptCandidate, TransactionCandidate } from '../matching/types.ts';
import { storedTables } from '../rates/store.ts';

const shift = (isoDate: string, days: number) =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Confirmed foreign matches looked at, newest first, at most. */
const MAX_IMPLIED = 500;

const abs = (n: bigint): bigint => (n < 0n ? -n : n);
const whole = (minor: bigint, currency: string) => Number(minor) / 10 ** (iso4217MinorUnit(currency) ?? 2);

/**
 * Receipts in one currency matched to a transaction in another, booked `from` to `to`: units of the
 * transaction's currency per unit of the receipt's, dated by the booking. The bank's original
 * amount, when it is in the receipt's currency, is the exact conversion; else the receipt total.
 */
export async function impliedRates(
  db: Kysely<Database>,
  organizationId: string,
  from: string,
  to: string,
): Promise<ImpliedRate[]> {
  const rows = await db
    .selectFrom('receipts as r')
    .innerJoin('bank_transactions as t', (join) =>
      join.onRef('t.id', '=', 'r.transaction_id').onRef('t.organization_id', '=', 'r.organization_id'),
    )
    .select([
      'r.currency as receipt_currency',
      'r.total_minor',
      't.currency',
      't.amount_minor',
      't.original_amount_minor',
      't.original_currency',
      't.booked_date',
    ])
    .where('r.organization_id', '=', organizationId)
    .where('r.state', '=', 'matched')
    .where('r.currency', 'is not', null)
    .where('r.total_minor', 'is not', null)
    .whereRef('r.currency', '<>', 't.currency')
    .where('t.booked_date', '>=', from)
    .where('t.booked_date', '<=', to)
    .orderBy('t.booked_date', 'desc')
    .limit(MAX_IMPLIED)
    .execute();
  return rows.flatMap((row) => {
    const receiptCurrency = row.receipt_currency ?? '';
    const charged = abs(asMinor(row.amount_minor));
    const original =
      row.original_currency === receiptCurrency && row.original_amount_minor !== null
        ? abs(asMinor(row.original_amount_minor))
        : row.total_minor === null
          ? 0n
          : abs(asMinor(row.total_minor));
    if (charged === 0n || original === 0n) return [];
    const rate = whole(charged, row.currency) / whole(original, receiptCurrency);
    return [{ from: receiptCurrency, to: row.currency, rate, date: String(row.booked_date) }];
  });
}

/** A pair the engine would convert: other currencies and no original amount in the receipt's. */
const needsRate = (receipt: ReceiptCandidate, tx: TransactionCandidate) =>
  receipt.currency !== null &&
  receipt.currency !== tx.currency &&
  !(tx.originalCurrency === receipt.currency && tx.originalAmountMinor !== null);

/** `settings` with the dated and implied rates the pairs of receipts x transactions may need. */
export async function withRates(
  db: Kysely<Database>,
  organizationId: string,
  settings: MatchSettings,
  receipts: readonly ReceiptCandidate[],
  transactions: readonly TransactionCandidate[],
): Promise<MatchSettings> {
  const dates = transactions
    .filter((tx) => receipts.some((receipt) => needsRate(receipt, tx)))
    .map((tx) => tx.bookedDate)
    .sort();
  const first = dates[0];
  const last = dates.at(-1);
  if (first === undefined || last === undefined) return settings;
  const [datedRates, implied] = await Promise.all([
    storedTables(db, shift(first, -settings.datedRateMaxAgeDays), last),
    impliedRates(
      db,
      organizationId,
      shift(first, -settings.impliedRateMaxAgeDays),
      shift(last, settings.impliedRateMaxAgeDays),
    ),
  ]);
  return { ...settings, datedRates, impliedRates: implied };
}
