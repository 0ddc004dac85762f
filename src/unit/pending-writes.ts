import { type Insertable, type Kysely, type RawBuilder, sql } from 'kysely';
import type { DialectName } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { AuditLogTable } from '../db/tables/core.ts';
import { type EventRecorder, eventRow, type RecordedEvent } from '../events/recorder.ts';

/** Rows per INSERT: far below both databases' limits on bound parameters (12 columns a row). */
const CHUNK = 500;

/**
 * A unit's last statement (the idempotency completion of src/operations/run-once.ts): a
 * data-modifying statement without RETURNING, and the check of how many rows it changed, which
 * throws (rolling the whole unit back) when the unit must not commit.
 */
export interface FinalStatement {
  statement: RawBuilder<unknown>;
  check(changed: number): void;
}

/**
 * The audit rows and events a unit of work collected, written at its end, still inside its
 * transaction (decision 275). Nothing in a unit reads its own audit rows or events back, and the
 * webhook fan-out runs after the events are written, so their deliveries still commit (or roll
 * back) with the change.
 *
 * On PostgreSQL, with a final statement, everything goes in ONE round trip (decision 292): the
 * audit and event inserts and the final statement are data-modifying WITH clauses of one SELECT,
 * which also carries the fan-outs' look-ups (the organization's webhook endpoints), so the
 * fan-out writes only when an endpoint matches. The SQL is written by hand: these statements run
 * on every mutation and Kysely's builder and compiler cost more CPU than the rest of the flush.
 * SQLite, in-process, takes plain multi-row inserts.
 */
export class PendingWrites {
  readonly audit: Array<Insertable<AuditLogTable>> = [];
  readonly events: RecordedEvent[] = [];
  /** Rows of background work (webhook deliveries) the flushed events' fan-outs queued. */
  queuedWork = 0;

  get empty(): boolean {
    return this.audit.length === 0 && this.events.length === 0;
  }

  /** Writes what was collected, then `last` when given (see the class comment). */
  async flush(
    db: Kysely<Database>,
    dialect: DialectName,
    recorder: EventRecorder,
    requestId: string,
    last?: FinalStatement,
  ): Promise<void> {
    const audit = this.audit.splice(0);
    const events = this.events.splice(0);
    const eventRows = events.map((event) => eventRow(event, requestId));
    let looked: { organizationId: string; values: unknown[] } | undefined;
    if (dialect === 'postgres' && last && audit.length <= CHUNK && eventRows.length <= CHUNK) {
      const ctes: RawBuilder<unknown>[] = [];
      if (audit.length > 0) ctes.push(sql`audited as (${insertRows('audit_log', audit)})`);
      if (eventRows.length > 0) ctes.push(sql`recorded as (${insertRows('events', eventRows)})`);
      ctes.push(sql`done as (${last.statement} returning 1)`);
      const organizationId = events[0]?.organizationId;
      const lookups = organizationId === undefined ? [] : recorder.lookups(organizationId);
      const selected = [sql`(select count(*) from done)::int as changed`];
      lookups.forEach((lookup, i) => {
        if (lookup) selected.push(sql`${lookup} as ${sql.raw(`looked_${i}`)}`);
      });
      const { rows } = await sql<
        Record<string, unknown>
      >`with ${sql.join(ctes)} select ${sql.join(selected)}`.execute(db);
      const row = rows[0] ?? {};
      last.check(Number(row.changed ?? 0));
      if (organizationId !== undefined) {
        looked = {
          organizationId,
          values: lookups.map((lookup, i) => (lookup ? row[`looked_${i}`] : undefined)),
        };
      }
    } else {
      if (
        dialect === 'postgres' &&
        audit.length > 0 &&
        eventRows.length > 0 &&
        audit.length <= CHUNK &&
        eventRows.length <= CHUNK
      ) {
        // Two inserts, one round trip.
        await sql`with audited as (${insertRows('audit_log', audit)}) ${insertRows('events', eventRows)}`.execute(
          db,
        );
      } else {
        for (let i = 0; i < audit.length; i += CHUNK)
          await insertRows('audit_log', audit.slice(i, i + CHUNK)).execute(db);
        for (let i = 0; i < eventRows.length; i += CHUNK)
          await insertRows('events', eventRows.slice(i, i + CHUNK)).execute(db);
      }
      if (last) {
        const result = await last.statement.execute(db);
        last.check(Number(result.numAffectedRows ?? 0n));
      }
    }
    for (const event of events) {
      const prefetched = looked?.organizationId === event.organizationId ? looked.values : undefined;
      this.queuedWork += await recorder.fanOut(db, event, prefetched);
    }
  }
}

/**
 * `insert into <table> (<columns>) values (...), (...)` for rows of one shape. Column names come
 * from our own typed rows, never from input; a value left undefined takes the column's default,
 * as Kysely's insert would.
 */
function insertRows(table: 'audit_log' | 'events', rows: ReadonlyArray<object>): RawBuilder<unknown> {
  const first = rows[0] ?? {};
  const columns = Object.keys(first);
  const values = rows.map((row) => {
    const record = row as Record<string, unknown>;
    return sql`(${sql.join(columns.map((column) => (record[column] === undefined ? sql`default` : sql`${record[column]}`)))})`;
  });
  return sql`insert into ${sql.raw(table)} (${sql.raw(columns.join(', '))}) values ${sql.join(values)}`;
}
