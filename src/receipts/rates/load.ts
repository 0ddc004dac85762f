// `accounting rates load` and `accounting rates status`: the reference rates without the job, for
// operators whose servers have no outbound network, and what the table and the job hold now.
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/database.ts';
import { RATES_FILE_LIMITS, RatesFileError } from './rates-file.ts';
import { type SavedRates, type StoredRatesSummary, saveRates, storedRatesSummary } from './store.ts';

/** Reads at most the file limit plus one byte: a larger file is refused without reading it all. */
async function readBounded(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(RATES_FILE_LIMITS.bytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/**
 * Loads an ECB-format file (daily, 90-day or full history) in one transaction; a refused file
 * (RatesFileError with its code) changes nothing. Rows are labelled `file <name>`.
 */
export async function loadRatesFile(db: Db, file: string, now: Date): Promise<SavedRates> {
  const bytes = await readBounded(file);
  const { parseEcbRates } = await import('./ecb-file.ts');
  const days = parseEcbRates(bytes);
  const source = `file ${path.basename(file)}`.slice(0, 200);
  return db.kysely.transaction().execute((trx) => saveRates(trx, days, source, now.toISOString()));
}

export interface RatesStatus extends StoredRatesSummary {
  /** The configured source's host and path, or null when the job is off. */
  source: string | null;
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  nextDueAt: string | null;
  lastErrorCode: string | null;
  lastErrorMessage: string | null;
}

export async function ratesStatus(db: Db, configuredUrl: string | undefined): Promise<RatesStatus> {
  const summary = await storedRatesSummary(db.kysely);
  const state = await db.kysely
    .selectFrom('reference_rate_source')
    .selectAll()
    .where('id', '=', 'default')
    .executeTakeFirst();
  const url = configuredUrl === undefined ? null : new URL(configuredUrl);
  return {
    ...summary,
    // Host and path only: a query string may carry a key.
    source: url === null ? null : `${url.host}${url.pathname}`,
    lastAttemptAt: state?.last_attempt_at ?? null,
    lastSuccessAt: state?.last_success_at ?? null,
    nextDueAt: url === null ? null : (state?.next_due_at ?? null),
    lastErrorCode: state?.last_error_code ?? null,
    lastErrorMessage: state?.last_error_message ?? null,
  };
}

export { RatesFileError };
