import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { asJson, asMinor } from '../db/values.ts';
import { iso4217MinorUnit } from '../lib/currencies.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { UnitRuntime } from '../unit/unit-of-work.ts';
import { withUnit } from '../unit/with-unit.ts';
import { type ClaimedJob, claimJob, emptyCounts, finishJob, retryOrFail } from './jobs-queue.ts';

export const EXPORT_JOB = 'entries.export';
export const EXPORT_RETENTION_MS = 7 * 86_400_000;
const PAGE = 1000;
const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

export interface ExportParams {
  from: string;
  to: string;
}

export const EXPORT_HEADER = [
  'entry_id',
  'date',
  'description',
  'counterparty',
  'currency',
  'entry_amount',
  'category_code',
  'category_name',
  'amount',
  'tax_rate',
  'tax',
  'review_status',
];

/** RFC 4180 field; a leading =, +, - or @ is prefixed with ' so spreadsheets never run it as a formula. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?[0-9]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Minor units as a decimal amount of the currency ("-12.50"). */
export function decimalAmount(minor: bigint, currency: string): string {
  // ISO's minor unit, not Intl's display digits (Intl shows IQD or HUF without decimals).
  const exponent = iso4217MinorUnit(currency) ?? 2;
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = exponent > 0 ? `.${digits.slice(digits.length - exponent)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

export async function runEntriesExports(services: UnitRuntime & { metrics?: Metrics }): Promise<number> {
  const job = await claimJob(services.db, 'entries_export', workerId, services.clock.now());
  if (!job) return 0;
  try {
    await runExport(services, job);
  } catch (error) {
    // One export that throws is retried after a pause and ends `failed` with its cause after its
    // last attempt; the other exports (of this and other organizations) go on meanwhile.
    const cause = error instanceof Error ? error.message : String(error);
    const outcome = await retryOrFail(services.db.kysely, job, workerId, services.clock.now(), cause);
    if (outcome) services.metrics?.recordJobFailure(EXPORT_JOB, outcome);
    services.logger.warn(
      {
        err: error,
        job: EXPORT_JOB,
        exportId: job.id,
        organizationId: job.organizationId,
        attempt: job.attempts,
        outcome,
      },
      outcome === 'failed' ? 'export failed for good' : 'export failed, tried again later',
    );
  }
  return 1;
}

async function runExport(services: UnitRuntime, job: ClaimedJob): Promise<void> {
  const db = services.db.kysely;
  const row = await db
    .selectFrom('books_jobs')
    .select(['params'])
    .where('id', '=', job.id)
    .executeTakeFirstOrThrow();
  const params = asJson<ExportParams>(row.params);
  const lines: string[] = [EXPORT_HEADER.join(',')];
  let after: { date: string; id: string } | undefined;
  let entries = 0;
  for (;;) {
    let query = db
      .selectFrom('ledger_entries as e')
      .select([
        'e.id',
        'e.entry_date',
        'e.description',
        'e.counterparty',
        'e.currency',
        'e.amount_minor',
        'e.review_status',
      ])
      .where('e.organization_id', '=', job.organizationId)
      .where('e.entry_date', '>=', params.from)
      .where('e.entry_date', '<=', params.to);
    if (after) {
      const { date, id } = after;
      query = query.where((eb) => eb(eb.refTuple('e.entry_date', 'e.id'), '>', eb.tuple(date, id)));
    }
    const page = await query.orderBy('e.entry_date').orderBy('e.id').limit(PAGE).execute();
    if (page.length === 0) break;
    const allocations = await db
      .selectFrom('ledger_allocations as a')
      .innerJoin('books_categories as c', 'c.id', 'a.category_id')
      .select(['a.entry_id', 'c.code', 'c.name', 'a.amount_minor', 'a.tax_rate', 'a.tax_minor'])
      .where(
        'a.entry_id',
        'in',
        page.map((e) => e.id),
      )
      .orderBy('a.entry_id')
      .orderBy('a.position')
      .execute();
    for (const entry of page) {
      for (const allocation of allocations.filter((a) => a.entry_id === entry.id)) {
        lines.push(
          [
            entry.id,
            entry.entry_date,
            entry.description,
            entry.counterparty ?? '',
            entry.currency,
            decimalAmount(asMinor(entry.amount_minor), entry.currency),
            allocation.code,
            allocation.name,
            decimalAmount(asMinor(allocation.amount_minor), entry.currency),
            allocation.tax_rate,
            decimalAmount(asMinor(allocation.tax_minor), entry.currency),
            entry.review_status,
          ]
            .map(csvField)
            .join(','),
        );
      }
    }
    entries += page.length;
    const last = page.at(-1);
    if (!last || page.length < PAGE) break;
    after = { date: last.entry_date, id: last.id };
  }
  const bytes = Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
  await withUnit(
    services,
    { organizationId: job.organizationId, actor: { type: 'job', job: EXPORT_JOB }, operation: EXPORT_JOB },
    async (unit) => {
      const trx = unit.db;
      const now = services.clock.now();
      const finished = await finishJob(trx, job, workerId, {
        state: 'succeeded',
        now: now.toISOString(),
        purgeAfter: new Date(now.getTime() + EXPORT_RETENTION_MS).toISOString(),
        counts: { ...emptyCounts(), read: entries, added: lines.length - 1 },
        output: { fileName: `entries-${params.from}-${params.to}.csv`, mediaType: 'text/csv', bytes },
      });
      if (!finished) return;
      await unit.emit({
        type: 'entries.export.completed',
        subject: { type: 'entries_export', id: job.id },
        data: { from: params.from, to: params.to, entries },
      });
    },
  );
}
