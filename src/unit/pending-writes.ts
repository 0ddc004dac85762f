import type { Insertable, Kysely, QueryCreator } from 'kysely';
import type { DialectName } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { AuditLogTable } from '../db/tables/core.ts';
import { type EventRecorder, eventRow, type RecordedEvent } from '../events/recorder.ts';

/** Rows per INSERT: far below both databases' limits on bound parameters (12 columns a row). */
const CHUNK = 500;

/**
 * The audit rows and events a unit of work collected, written at its end, still inside its
 * transaction (decision 275). A unit usually holds one of each: on PostgreSQL they go in ONE
 * statement (the audit insert as a data-modifying WITH of the events insert), where writing each
 * as it came cost a round trip apiece; SQLite, in-process, takes multi-row inserts. Nothing in a
 * unit reads its own audit rows or events back, and the webhook fan-out runs after the events are
 * written, so their deliveries still commit (or roll back) with the change.
 */
export class PendingWrites {
  readonly audit: Array<Insertable<AuditLogTable>> = [];
  readonly events: RecordedEvent[] = [];

  get empty(): boolean {
    return this.audit.length === 0 && this.events.length === 0;
  }

  /**
   * Writes what was collected. `last`, when given, is the unit's final statement (the idempotency
   * completion of src/operations/run-once.ts): on PostgreSQL the collected inserts become WITH
   * clauses of that very statement, so audit row, event and completion cost one round trip.
   */
  async flush<T>(
    db: Kysely<Database>,
    dialect: DialectName,
    recorder: EventRecorder,
    requestId: string,
    last?: (db: QueryCreator<Database>) => Promise<T>,
  ): Promise<T | undefined> {
    const audit = this.audit.splice(0);
    const events = this.events.splice(0);
    const eventRows = events.map((event) => eventRow(event, requestId));
    let result: T | undefined;
    if (
      dialect === 'postgres' &&
      audit.length <= CHUNK &&
      eventRows.length <= CHUNK &&
      (last || (audit.length > 0 && eventRows.length > 0))
    ) {
      let creator: QueryCreator<Database> = db;
      if (audit.length > 0) {
        creator = creator.with('audited', (q) =>
          q.insertInto('audit_log').values(audit).returning('id'),
        ) as unknown as QueryCreator<Database>;
      }
      if (last) {
        if (eventRows.length > 0) {
          creator = creator.with('recorded', (q) =>
            q.insertInto('events').values(eventRows).returning('id'),
          ) as unknown as QueryCreator<Database>;
        }
        result = await last(creator);
      } else {
        await creator.insertInto('events').values(eventRows).execute();
      }
    } else {
      for (let i = 0; i < audit.length; i += CHUNK) {
        await db
          .insertInto('audit_log')
          .values(audit.slice(i, i + CHUNK))
          .execute();
      }
      for (let i = 0; i < eventRows.length; i += CHUNK) {
        await db
          .insertInto('events')
          .values(eventRows.slice(i, i + CHUNK))
          .execute();
      }
      if (last) result = await last(db);
    }
    for (const event of events) await recorder.fanOut(db, event);
    return result;
  }
}
