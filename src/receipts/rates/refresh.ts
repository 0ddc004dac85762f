// The rates job (decision 492): fetches the operator's ECB-format file when it is due and stores
// its days. Any number of processes run it; the one state row decides who fetches:
//
//   due = next_due_at <= now and no live lease. A process takes the row with a compare-and-set
//   (lease_until, lease_token); fetches with no transaction open; then writes the rates and the
//   row's success in ONE transaction that updates the row only under its own token. A process that
//   stalled past its lease and was taken over updates no row, and its rates roll back with it.
//
// A failure (network, HTTP status, a hostile or malformed file) stores its stable code, changes no
// rate, and is tried again after RETRY_MS (or the interval, when shorter).
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { Metrics } from '../../observability/metrics.ts';
import { getSafely } from '../../webhooks/safe-get.ts';
import type { LocalhostPorts } from '../../webhooks/url-policy.ts';
import { RATES_FILE_LIMITS, type RatesFailureCode, RatesFileError } from './rates-file.ts';
import { saveRates } from './store.ts';

export const RATES_JOB = 'receipts.reference_rates';
const SOURCE_ID = 'default';
/** The daily file is 2 KiB and the 90-day one about 100 KiB; the full history belongs to `rates load`. */
export const FETCH_MAX_BYTES = 4 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;
/** Longer than a fetch and its write can take, so a live holder is never taken over. */
const LEASE_MS = 5 * 60_000;
const RETRY_MS = 60 * 60_000;

export interface RatesRuntime {
  db: Db;
  clock: Clock;
  config: {
    referenceRates: { url: string | undefined; intervalMs: number };
    webhooks: { allowLocalhostHttp: boolean; localhostPorts: LocalhostPorts };
  };
  logger: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  metrics?: Pick<Metrics, 'recordJobFailure'>;
}

export type RefreshOutcome =
  | { outcome: 'off' | 'not_due' }
  | { outcome: 'loaded'; days: number; rows: number; newestDate: string | null }
  | { outcome: 'failed'; code: RatesFailureCode | `rates_fetch_${string}`; message: string };

/** The label stored with fetched rates and named in explanations: the source's host. */
export function sourceLabel(url: string): string {
  return new URL(url).host;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Takes the state row when due; the lease token, or undefined when not due or held elsewhere. */
async function claim(runtime: RatesRuntime, url: string, nowMs: number): Promise<string | undefined> {
  const { kysely } = runtime.db;
  const now = iso(nowMs);
  const row = await kysely
    .selectFrom('reference_rate_source')
    .select(['url', 'next_due_at', 'lease_until'])
    .where('id', '=', SOURCE_ID)
    .executeTakeFirst();
  if (row === undefined) {
    await kysely
      .insertInto('reference_rate_source')
      .values({ id: SOURCE_ID, url, next_due_at: now, rows_loaded: 0 })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  } else if (row.url !== url) {
    // Another source was configured: fetch it now rather than at the old one's next time.
    await kysely
      .updateTable('reference_rate_source')
      .set({ url, next_due_at: now })
      .where('id', '=', SOURCE_ID)
      .where('url', '=', row.url)
      .execute();
  } else if (row.next_due_at > now || (row.lease_until !== null && row.lease_until > now)) {
    return undefined; // the idle poll: one read, no write
  }
  const token = newId(nowMs);
  const taken = await kysely
    .updateTable('reference_rate_source')
    .set({ lease_until: iso(nowMs + LEASE_MS), lease_token: token, last_attempt_at: now })
    .where('id', '=', SOURCE_ID)
    .where('next_due_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .executeTakeFirst();
  return taken.numUpdatedRows === 1n ? token : undefined;
}

async function download(runtime: RatesRuntime, url: string): Promise<Buffer> {
  const result = await getSafely(url, {
    accept: 'application/xml, text/xml',
    maxBytes: FETCH_MAX_BYTES,
    timeoutMs: FETCH_TIMEOUT_MS,
    // The operator's URL passes the same policy as webhook endpoints, localhost exception included.
    allowLocalhostHttp: runtime.config.webhooks.allowLocalhostHttp,
    localhostPorts: runtime.config.webhooks.localhostPorts,
  });
  if (result.ok) return result.body;
  throw new FetchFailure(`rates_fetch_${result.errorClass}`, result.errorMessage);
}

class FetchFailure extends Error {
  constructor(
    readonly code: `rates_fetch_${string}`,
    message: string,
  ) {
    super(message);
  }
}

/** One run of the rates job: fetch and store when due, else nothing. Never throws for the source's faults. */
export async function refreshReferenceRates(runtime: RatesRuntime): Promise<RefreshOutcome> {
  const url = runtime.config.referenceRates.url;
  if (url === undefined) return { outcome: 'off' };
  const started = runtime.clock.now().getTime();
  const token = await claim(runtime, url, started);
  if (token === undefined) return { outcome: 'not_due' };
  const { kysely } = runtime.db;
  const interval = runtime.config.referenceRates.intervalMs;
  try {
    const bytes = await download(runtime, url);
    const { parseEcbRates } = await import('./ecb-file.ts');
    const days = parseEcbRates(bytes);
    const now = runtime.clock.now().toISOString();
    const saved = await kysely.transaction().execute(async (trx) => {
      const result = await saveRates(trx, days, sourceLabel(url), now);
      const mine = await trx
        .updateTable('reference_rate_source')
        .set({
          next_due_at: iso(started + interval),
          lease_until: null,
          lease_token: null,
          last_success_at: now,
          last_error_code: null,
          last_error_message: null,
          newest_date: result.newestDate,
          rows_loaded: result.rows,
        })
        .where('id', '=', SOURCE_ID)
        .where('lease_token', '=', token)
        .executeTakeFirst();
      // Taken over while stalled: the other holder's fetch counts, this one's rows roll back.
      if (mine.numUpdatedRows !== 1n) throw new LeaseLost();
      return result;
    });
    runtime.logger.info({ job: RATES_JOB, ...saved, source: sourceLabel(url) }, 'reference rates loaded');
    return { outcome: 'loaded', days: saved.days, rows: saved.rows, newestDate: saved.newestDate };
  } catch (error) {
    if (error instanceof LeaseLost) return { outcome: 'not_due' };
    const known = error instanceof RatesFileError || error instanceof FetchFailure;
    const code = known ? error.code : 'rates_fetch_failed';
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    runtime.metrics?.recordJobFailure(RATES_JOB, 'failed');
    runtime.logger.warn(
      { job: RATES_JOB, code, message, source: sourceLabel(url) },
      'reference rates not loaded',
    );
    await kysely
      .updateTable('reference_rate_source')
      .set({
        next_due_at: iso(runtime.clock.now().getTime() + Math.min(RETRY_MS, interval)),
        lease_until: null,
        lease_token: null,
        last_error_code: code,
        last_error_message: message,
      })
      .where('id', '=', SOURCE_ID)
      .where('lease_token', '=', token)
      .execute();
    return { outcome: 'failed', code, message };
  }
}

class LeaseLost extends Error {}

/** Bytes a local file may have for `accounting rates load` (the full ECB history fits). */
export const LOAD_MAX_BYTES = RATES_FILE_LIMITS.bytes;
