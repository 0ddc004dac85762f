// The stored reference rates (migration 0032): written by the rates job and `accounting rates
// load`, read by matching for the dates of the charges it scores. Public data, no organization.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ReferenceRates } from '../matching/reference-rates.ts';
import type { RatesDay } from './rates-file.ts';

export interface SavedRates {
  days: number;
  rows: number;
  newestDate: string | null;
  oldestDate: string | null;
}

/** Rows per insert: 5 parameters each stays far below SQLite's and PostgreSQL's limits. */
const BATCH = 400;

/**
 * Writes every day of a file in the caller's transaction: a date and currency already stored is
 * replaced (the ECB revises nothing, but a reload after a fix must win), nothing else is touched.
 */
export async function saveRates(
  db: Kysely<Database>,
  days: readonly RatesDay[],
  source: string,
  now: string,
): Promise<SavedRates> {
  const rows = days.flatMap((day) =>
    [...day.rates].map(([currency, rate]) => ({
      rate_date: day.date,
      currency,
      rate,
      source,
      loaded_at: now,
    })),
  );
  for (let at = 0; at < rows.length; at += BATCH) {
    await db
      .insertInto('reference_rates')
      .values(rows.slice(at, at + BATCH))
      .onConflict((oc) =>
        oc.columns(['rate_date', 'currency']).doUpdateSet((eb) => ({
          rate: eb.ref('excluded.rate'),
          source: eb.ref('excluded.source'),
          loaded_at: eb.ref('excluded.loaded_at'),
        })),
      )
      .execute();
  }
  const dates = days.map((day) => day.date).sort();
  return {
    days: days.length,
    rows: rows.length,
    newestDate: dates.at(-1) ?? null,
    oldestDate: dates[0] ?? null,
  };
}

/** The stored tables dated `from` to `to` (ISO dates, inclusive), one per date, EUR included. */
export async function storedTables(
  db: Kysely<Database>,
  from: string,
  to: string,
): Promise<ReferenceRates[]> {
  const rows = await db
    .selectFrom('reference_rates')
    .select(['rate_date', 'currency', 'rate', 'source'])
    .where('rate_date', '>=', from)
    .where('rate_date', '<=', to)
    .orderBy('rate_date')
    .orderBy('currency')
    .execute();
  const byDate = new Map<string, { source: string; perEur: Record<string, number> }>();
  for (const row of rows) {
    const date = String(row.rate_date);
    let table = byDate.get(date);
    if (table === undefined) {
      table = { source: row.source, perEur: { EUR: 1 } };
      byDate.set(date, table);
    }
    table.perEur[row.currency] = Number(row.rate);
  }
  return [...byDate].map(([date, { source, perEur }]) => ({ date, source, perEur }));
}

export interface StoredRatesSummary {
  rows: number;
  oldestDate: string | null;
  newestDate: string | null;
}

export async function storedRatesSummary(db: Kysely<Database>): Promise<StoredRatesSummary> {
  const row = await db
    .selectFrom('reference_rates')
    .select((eb) => [
      eb.fn.countAll<string | number>().as('rows'),
      eb.fn.min('rate_date').as('oldest'),
      eb.fn.max('rate_date').as('newest'),
    ])
    .executeTakeFirst();
  return {
    rows: Number(row?.rows ?? 0),
    oldestDate: row?.oldest == null ? null : String(row.oldest),
    newestDate: row?.newest == null ? null : String(row.newest),
  };
}
