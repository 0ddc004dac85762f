import { newId } from '../lib/ids.ts';
import { toSingleLine } from '../mail/message.ts';
import { type Actor, auditActor, defaultTransport, type Transport } from './actor.ts';
import { type FinalStatement, PendingWrites } from './pending-writes.ts';
import type { UnitOfWork, UnitRuntime } from './unit-of-work.ts';
import { nudgeWhenWorkQueued, type WakeupTopic } from './wakeups.ts';

export interface UnitOptions {
  organizationId: string;
  actor: Actor;
  /** The audited operation name; a job's name when the actor is a job. */
  operation: string;
  /** Ties audit rows and events to a request log line; jobs get a fresh `job_<hex>`. */
  requestId?: string;
  /**
   * A read: no transaction is opened, and auditing, events and mail are refused (a read that
   * tried would be a programming error).
   */
  readOnly?: boolean;
  /** Recorded on audit rows; derived from the actor when omitted (see `defaultTransport`). */
  transport?: Transport;
  /**
   * `required`: the unit must record an audit row before it commits (decision 394), as every
   * catalog mutation, portal action and operator command does; `onlyOnChange` for an operation
   * whose call may legitimately change nothing. Left out by units that may refuse by returning
   * (sign-in, sessions) and by jobs, which also write their own progress and leases.
   */
  audit?: 'required' | 'onlyOnChange';
}

/**
 * The one unit of work. Runs `work` in one transaction: its changes, audit rows, events (with
 * their webhook fan-out) and queued mail commit or roll back together. After commit, and only
 * then, it runs the after-commit tasks: one delivery nudge when events were recorded, mail
 * dispatch when mail was queued, and whatever `work` added. Their failures are logged, not raised:
 * the change is committed and the pollers will find what a nudge missed.
 */
export async function withUnit<T>(
  runtime: UnitRuntime,
  options: UnitOptions,
  work: (unit: EndableUnit) => Promise<T>,
): Promise<T> {
  const requestId = unitRequestId(options);
  const afterCommit: Array<() => Promise<void> | void> = [];
  if (options.readOnly) {
    // A read opens no transaction; on SQLite it may run on the read pool (decision 288).
    return work(
      makeUnit(runtime, options, requestId, runtime.db.readKysely, afterCommit, new PendingWrites()),
    );
  }
  const pending = new PendingWrites();
  const result = await runtime.db.kysely.transaction().execute(async (trx) => {
    const unit = makeUnit(runtime, options, requestId, trx, afterCommit, pending);
    const value = await work(unit);
    if (!unit.declaredUnchanged()) requireAudit(runtime, options, unit.auditCount());
    await pending.flush(trx, runtime.db.dialect, runtime.events, requestId);
    return value;
  });
  nudgeWhenWorkQueued(runtime.wakeups, [pending]);
  await runAfterCommit(runtime, afterCommit, { requestId, operation: options.operation });
  return result;
}

/**
 * Audit that cannot be forgotten (issue 24 part 4, decision 394): a unit that declared its audit
 * `required` and succeeded without an audit row is a programming error, whichever door it came by
 * (API, MCP, dashboard, portal, CLI). The test suite (NODE_ENV=test) fails on it; in production
 * the change still commits and the error is logged.
 */
function requireAudit(runtime: UnitRuntime, options: UnitOptions, audited: number): void {
  if (audited > 0 || options.audit !== 'required') return;
  const message = `${options.operation} succeeded but wrote no audit row (declare mutation.auditOnlyOnChange if a call may change nothing)`;
  if (process.env.NODE_ENV === 'test') throw new Error(message);
  runtime.logger.error({ operation: options.operation }, message);
}

/** A request's id, or for a job's unit a fresh `job_<hex>`. */
function unitRequestId(options: UnitOptions): string {
  return options.requestId ?? `job_${newId().replaceAll('-', '')}`;
}

/**
 * The after-commit tasks, in order. Their failures are logged, not raised: the change is
 * committed, and the pollers find what a nudge missed.
 */
async function runAfterCommit(
  runtime: UnitRuntime,
  tasks: ReadonlyArray<() => Promise<void> | void>,
  context: Record<string, unknown>,
): Promise<void> {
  for (const task of tasks) {
    try {
      await task();
    } catch (error) {
      runtime.logger.error({ err: error, ...context }, 'after-commit task failed');
    }
  }
}

/** The unit as `withUnit` hands it over: with the one extra the idempotent pipeline needs. */
export interface EndableUnit extends UnitOfWork {
  /**
   * Writes the collected audit rows and events together with `last`, the unit's final statement
   * (src/operations/run-once.ts: the idempotency completion), in one statement on PostgreSQL.
   */
  endWith(last: FinalStatement): Promise<void>;
  /** Says the unit changed nothing (an idempotent replay), so it needs no audit row. */
  changedNothing(): void;
  declaredUnchanged(): boolean;
}

function makeUnit(
  runtime: UnitRuntime,
  options: UnitOptions,
  requestId: string,
  db: UnitOfWork['db'],
  afterCommit: Array<() => Promise<void> | void>,
  pending: PendingWrites,
): EndableUnit {
  const { organizationId, actor, operation } = options;
  const refuseOnRead = (what: string) => {
    if (options.readOnly) throw new Error(`${operation} is a read and cannot ${what}`);
  };
  let mailQueued = false;
  // Counted apart from `pending`: an `endWith` inside the work flushes the rows before the check.
  let audited = 0;
  let unchanged = false;
  const woken = new Set<WakeupTopic>();
  return {
    organizationId,
    actor,
    requestId,
    operation,
    db,
    dialect: runtime.db.dialect,
    clock: runtime.clock,
    // Audit rows and events are collected and written at the unit's end (src/unit/pending-writes.ts).
    async audit(entry) {
      refuseOnRead('write audit records');
      audited += 1;
      pending.audit.push({
        id: newId(),
        organization_id: organizationId,
        ...auditActor(actor),
        operation,
        request_id: requestId,
        record_type: entry.recordType,
        record_id: entry.recordId,
        before_revision: entry.beforeRevision,
        after_revision: entry.afterRevision,
        transport: options.transport ?? defaultTransport(actor),
        created_at: runtime.clock.now().toISOString(),
      });
    },
    insertAtEnd(table, row, explain) {
      refuseOnRead('write');
      pending.inserts.push({ table, row, explain });
    },
    async emit(event) {
      refuseOnRead('emit events');
      pending.events.push(
        runtime.events.prepare(organizationId, event, { requestId, now: runtime.clock.now() }),
      );
    },
    async sendMail(message) {
      refuseOnRead('send mail');
      // Subjects are built from stored names; one stored before names had to be one line (or
      // edited in the database) must not fail the unit, and so change an answer (decision 389).
      await runtime.mail.enqueue(db, organizationId, { ...message, subject: toSingleLine(message.subject) });
      if (mailQueued) return;
      mailQueued = true;
      afterCommit.push(() => runtime.mail.dispatchPending().then(() => undefined));
    },
    afterCommit(task) {
      afterCommit.push(task);
    },
    wake(topic) {
      if (woken.has(topic)) return;
      woken.add(topic);
      afterCommit.push(() => runtime.wakeups.notify(topic));
    },
    auditCount: () => audited,
    changedNothing() {
      unchanged = true;
    },
    declaredUnchanged: () => unchanged,
    async endWith(last) {
      refuseOnRead('write');
      await pending.flush(db, runtime.db.dialect, runtime.events, requestId, last);
    },
  };
}

/**
 * Several units of work in ONE transaction, each with its own organization and actor, for work
 * that settles many small items together (the webhook outcome batch,
 * src/webhooks/delivery/outcome.ts): `unitFor` opens a unit on the shared transaction (call it
 * only when an item needs audit rows, events or mail). Everything commits or rolls back together;
 * the after-commit tasks of every unit run after the commit, as in withUnit.
 */
export async function withUnitsInOneTransaction<T>(
  runtime: UnitRuntime,
  work: (db: UnitOfWork['db'], unitFor: (options: UnitOptions) => UnitOfWork) => Promise<T>,
): Promise<T> {
  const afterCommit: Array<() => Promise<void> | void> = [];
  // Each unit collects its own audit rows and events; all are written before the one commit.
  const opened: Array<{ pending: PendingWrites; requestId: string }> = [];
  const result = await runtime.db.kysely.transaction().execute(async (trx) => {
    const value = await work(trx, (options) => {
      const requestId = unitRequestId(options);
      const pending = new PendingWrites();
      opened.push({ pending, requestId });
      return makeUnit(runtime, { ...options, readOnly: false }, requestId, trx, afterCommit, pending);
    });
    for (const unit of opened)
      await unit.pending.flush(trx, runtime.db.dialect, runtime.events, unit.requestId);
    return value;
  });
  nudgeWhenWorkQueued(
    runtime.wakeups,
    opened.map((unit) => unit.pending),
  );
  await runAfterCommit(runtime, afterCommit, {});
  return result;
}
