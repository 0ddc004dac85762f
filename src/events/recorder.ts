import type { Insertable, Kysely, RawBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { EventsTable } from '../db/tables/core.ts';
import { dbJson } from '../db/values.ts';
import { newId } from '../lib/ids.ts';
import { findEventType } from './catalog.ts';
import { eventNonConformance } from './conformance.ts';
import type { EventInput } from './input.ts';

export interface RecordedEvent extends EventInput {
  id: string;
  organizationId: string;
  createdAt: string;
}

/**
 * Hooks that react to a freshly recorded event inside the same transaction (webhook fan-out).
 * Each returns how many rows of background work it queued (webhook deliveries): only those need a
 * delivery loop woken after the commit.
 */
export interface EventFanOut {
  /**
   * `looked` is what `lookup` found for the event's organization when the unit could run the
   * look-up in its last statement (PostgreSQL); undefined means look it up now.
   */
  (db: Kysely<Database>, event: RecordedEvent, looked?: unknown): Promise<number>;
  /** An optional scalar subquery of what the hook reads for an organization (src/unit/pending-writes.ts). */
  lookup?: (organizationId: string) => RawBuilder<unknown>;
}

export interface EventMeta {
  requestId: string | null;
  now: Date;
}

export interface EventRecorder {
  /** Writes the event with the caller's transaction, so it exists exactly when the change does. */
  record(
    db: Kysely<Database>,
    organizationId: string,
    event: EventInput,
    meta: EventMeta,
  ): Promise<RecordedEvent>;
  /**
   * Checks the event against the catalog and gives it its id and time, without writing it: a unit
   * of work writes the events it collected at its end (`rowOf`, then `fanOut`), in as few
   * statements as the database allows.
   */
  prepare(organizationId: string, event: EventInput, meta: EventMeta): RecordedEvent;
  /**
   * Runs the fan-outs (webhook deliveries) of an event already written in `db`'s transaction;
   * returns how many rows of background work they queued.
   */
  fanOut(db: Kysely<Database>, event: RecordedEvent, looked?: readonly unknown[]): Promise<number>;
  /** The fan-outs' look-ups for one organization, by hook (undefined: the hook has none). */
  lookups(organizationId: string): Array<RawBuilder<unknown> | undefined>;
}

/** The `events` row of a prepared event. */
export function eventRow(event: RecordedEvent, requestId: string | null): Insertable<EventsTable> {
  return {
    id: event.id,
    organization_id: event.organizationId,
    type: event.type,
    subject_type: event.subject?.type ?? null,
    subject_id: event.subject?.id ?? null,
    data: dbJson(event.data),
    request_id: requestId,
    created_at: event.createdAt,
  };
}

/**
 * What happens to an event whose data differs from its catalog entry, a programming error: the
 * test suite (NODE_ENV=test) fails on it; in production the change still commits and the
 * mismatch goes to `log` (the service's error log).
 */
export function nonConformancePolicy(log?: (message: string) => void): (message: string) => void {
  return (message) => {
    if (process.env.NODE_ENV === 'test') throw new Error(message);
    log?.(message);
  };
}

export function createEventRecorder(
  fanOuts: readonly EventFanOut[] = [],
  onNonConformance: (message: string) => void = nonConformancePolicy(),
): EventRecorder {
  const prepare = (organizationId: string, event: EventInput, meta: EventMeta): RecordedEvent => {
    // Every recorded type is documented (docs/events.md is generated from the catalog): an unknown
    // type is a programming error, so the change it belongs to fails and rolls back, loudly.
    const definition = findEventType(event.type);
    if (!definition) {
      throw new Error(
        `event type ${event.type} is not in the event catalog; add it to src/events/types/<area>.ts`,
      );
    }
    const problem = eventNonConformance(definition, event);
    if (problem !== null) onNonConformance(`event ${event.type} does not match the catalog: ${problem}`);
    return { ...event, id: newId(), organizationId, createdAt: meta.now.toISOString() };
  };
  const fanOut = async (
    db: Kysely<Database>,
    recorded: RecordedEvent,
    looked?: readonly unknown[],
  ): Promise<number> => {
    let queued = 0;
    for (const [i, hook] of fanOuts.entries()) queued += await hook(db, recorded, looked?.[i]);
    return queued;
  };
  return {
    prepare,
    fanOut,
    lookups: (organizationId) => fanOuts.map((hook) => hook.lookup?.(organizationId)),
    async record(db, organizationId, event, meta) {
      const recorded = prepare(organizationId, event, meta);
      await db.insertInto('events').values(eventRow(recorded, meta.requestId)).execute();
      await fanOut(db, recorded);
      return recorded;
    },
  };
}
