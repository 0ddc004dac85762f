import type { Insertable, Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Db, DialectName } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { EventInput } from '../events/input.ts';
import type { EventRecorder } from '../events/recorder.ts';
import type { Clock } from '../lib/clock.ts';
import type { MailMessage } from '../mail/message.ts';
import type { MailQueue } from '../mail/outbox-queue.ts';
import type { Actor } from './actor.ts';
import type { Wakeups, WakeupTopic } from './wakeups.ts';

export interface AuditEntry {
  recordType: string;
  recordId: string;
  beforeRevision: number | null;
  afterRevision: number | null;
}

/**
 * What domain code needs to change records: a transaction, the organization, the clock, and the
 * audit/event/mail writers that join that transaction. Made only by `withUnit`; an operation's
 * context is one with the caller's principal added.
 */
export interface UnitOfWork {
  organizationId: string;
  actor: Actor;
  requestId: string;
  /** The audited operation name (`invoices.send`, a job name, `portal.invitations.accept`). */
  operation: string;
  db: Kysely<Database>;
  /** For the few queries that differ (row locks exist on PostgreSQL only). */
  dialect: DialectName;
  clock: Clock;
  audit(entry: AuditEntry): Promise<void>;
  /** How many audit rows the unit has collected so far (the pipeline checks that a mutation wrote one). */
  auditCount(): number;
  /**
   * Inserts `row` at the unit's end, with its audit rows and events (on PostgreSQL in the same
   * round trip, decision 292), for a write nothing in the unit reads back. `explain` turns the
   * insert's failure into the caller's error (undefined keeps the original).
   */
  insertAtEnd<T extends keyof Database & string>(
    table: T,
    row: Insertable<Database[T]>,
    explain?: (error: unknown) => Error | undefined,
  ): void;
  emit(event: EventInput): Promise<void>;
  /** Queues mail in the transactional outbox; it is sent after commit (or kept, without SMTP). */
  sendMail(message: MailMessage): Promise<void>;
  /** Runs after a successful commit (never on rollback); failures there are logged, not raised. */
  afterCommit(task: () => Promise<void> | void): void;
  /**
   * Wakes the workers of `topic` (in every process) once the unit commits: work enqueued in the
   * unit is picked up at once instead of at the next poll. Enqueue functions call it themselves,
   * so no caller has to remember; several calls in one unit wake once.
   */
  wake(topic: WakeupTopic): void;
}

/**
 * The narrow part of the process's services a unit of work is built from. The composition root
 * (src/services.ts) satisfies it; domain code takes this, never the whole `Services`.
 */
export interface UnitRuntime {
  db: Db;
  clock: Clock;
  logger: Logger;
  events: EventRecorder;
  mail: MailQueue;
  wakeups: Wakeups;
}
