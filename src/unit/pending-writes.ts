import { type Insertable, type Kysely, type RawBuilder, sql } from 'kysely';
import type { DialectName } from '../db/database.ts';
import { PREPARED } from '../db/pg-prepared.ts';
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
 * A row the unit inserts at its end (`UnitOfWork.insertAtEnd`). `explain` turns the insert's
 * failure into the caller's error (a unique violation into `email_taken`); undefined keeps it.
 */
export interface DeferredInsert {
  table: keyof Database & string;
  row: object;
  explain?: (error: unknown) => Error | undefined;
}

/**
 * The rows a unit of work collected (inserts it deferred, audit rows, events), written at its end,
 * still inside its transaction (decisions 275, 292). Nothing in a unit reads them back, and the
 * webhook fan-out runs after the events are written, so its deliveries still commit (or roll back)
 * with the change.
 *
 * On PostgreSQL everything goes in ONE round trip (decision 292): each insert, and the final
 * statement, is a data-modifying WITH clause of one SELECT, which also carries the fan-outs'
 * look-ups (the organization's webhook endpoints), so the fan-out writes only when an endpoint
 * matches. The SQL is written by hand: it runs on every change, and Kysely's builder and compiler
 * cost more CPU than the rest of the flush. SQLite, in-process, takes one multi-row insert per
 * table.
 */
export class PendingWrites {
  readonly inserts: DeferredInsert[] = [];
  readonly audit: Array<Insertable<AuditLogTable>> = [];
  readonly events: RecordedEvent[] = [];
  /** Rows of background work (webhook deliveries) the flushed events' fan-outs queued. */
  queuedWork = 0;

  /** Writes what was collected, then `last` when given (see the class comment). */
  async flush(
    db: Kysely<Database>,
    dialect: DialectName,
    recorder: EventRecorder,
    requestId: string,
    last?: FinalStatement,
  ): Promise<void> {
    const inserts = this.inserts.splice(0);
    const audit = this.audit.splice(0);
    const events = this.events.splice(0);
    const eventRows = events.map((event) => eventRow(event, requestId));
    const writes: RawBuilder<unknown>[] = inserts.map((insert) => insertRows(insert.table, [insert.row]));
    let looked: { organizationId: string; values: unknown[] } | undefined;
    try {
      if (dialect === 'postgres' && audit.length <= CHUNK && eventRows.length <= CHUNK) {
        if (audit.length > 0) writes.push(insertRows('audit_log', audit));
        if (eventRows.length > 0) writes.push(insertRows('events', eventRows));
        if (last) writes.push(last.statement);
        if (writes.length > 0) {
          const organizationId = events[0]?.organizationId;
          const lookups = organizationId === undefined ? [] : recorder.lookups(organizationId);
          const row = await oneStatement(db, writes, last !== undefined, lookups);
          if (last) last.check(Number(row.changed ?? 0));
          if (organizationId !== undefined) {
            looked = {
              organizationId,
              values: lookups.map((lookup, i) => (lookup ? row[`looked_${i}`] : undefined)),
            };
          }
        }
      } else {
        for (const write of writes) await write.execute(db);
        for (let i = 0; i < audit.length; i += CHUNK)
          await insertRows('audit_log', audit.slice(i, i + CHUNK)).execute(db);
        for (let i = 0; i < eventRows.length; i += CHUNK)
          await insertRows('events', eventRows.slice(i, i + CHUNK)).execute(db);
        if (last) {
          const result = await last.statement.execute(db);
          last.check(Number(result.numAffectedRows ?? 0n));
        }
      }
    } catch (error) {
      for (const insert of inserts) {
        const explained = insert.explain?.(error);
        if (explained) throw explained;
      }
      throw error;
    }
    for (const event of events) {
      const prefetched = looked?.organizationId === event.organizationId ? looked.values : undefined;
      this.queuedWork += await recorder.fanOut(db, event, prefetched);
    }
  }
}

/**
 * PostgreSQL: `writes` as data-modifying WITH clauses of one SELECT (each runs exactly once, to
 * completion); the last one is `done` and reports its changed rows when `counted`. Returns the
 * one row: `changed`, and `looked_<i>` for each look-up.
 */
async function oneStatement(
  db: Kysely<Database>,
  writes: RawBuilder<unknown>[],
  counted: boolean,
  lookups: ReadonlyArray<RawBuilder<unknown> | undefined>,
): Promise<Record<string, unknown>> {
  const ctes = writes.map((write, i) =>
    counted && i === writes.length - 1
      ? sql`done as (${write} returning 1)`
      : sql`${sql.raw(`w${i}`)} as (${write})`,
  );
  const selected = [counted ? sql`(select count(*) from done)::int as changed` : sql`1 as one`];
  lookups.forEach((lookup, i) => {
    if (lookup) selected.push(sql`${lookup} as ${sql.raw(`looked_${i}`)}`);
  });
  const { rows } = await sql<
    Record<string, unknown>
  >`${sql.raw(PREPARED)}with ${sql.join(ctes)} select ${sql.join(selected)}`.execute(db);
  return rows[0] ?? {};
}

/**
 * `insert into <table> (<columns>) values (...), (...)` for rows of one shape. Table and column
 * names come from our own typed rows, never from input; a value left undefined takes the column's
 * default, as Kysely's insert would.
 */
function insertRows(table: string, rows: ReadonlyArray<object>): RawBuilder<unknown> {
  const columns = Object.keys(rows[0] ?? {});
  const values = rows.map((row) => {
    const record = row as Record<string, unknown>;
    return sql`(${sql.join(columns.map((column) => (record[column] === undefined ? sql`default` : sql`${record[column]}`)))})`;
  });
  return sql`insert into ${sql.raw(table)} (${sql.raw(columns.join(', '))}) values ${sql.join(values)}`;
}
