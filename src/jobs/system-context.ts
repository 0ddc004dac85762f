import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import type { MailMessage } from '../mail/message.ts';
import type { OperationContext } from '../operations/context.ts';
import type { Services } from '../services.ts';
import { eventsNudgeAfterCommit } from './wakeups.ts';

/**
 * What domain code needs to change records: a transaction, the organization, the clock, and the
 * audit/event/mail writers that join that transaction. An OperationContext is one (a member acting
 * through the API or MCP); `withSystemUnit` makes one for background jobs (the actor is the job).
 * Domain functions shared by operations and jobs take a UnitOfWork, never an OperationContext.
 */
export type UnitOfWork = Pick<
  OperationContext,
  'organizationId' | 'requestId' | 'db' | 'clock' | 'services' | 'audit' | 'emit' | 'sendMail' | 'afterCommit'
>;

/**
 * Runs `work` in one transaction as the system actor `job:<jobName>`. Its audit rows, events and
 * mail commit or roll back with its changes; after-commit tasks (mail dispatch) run only on commit.
 */
export async function withSystemUnit<T>(
  services: Services,
  organizationId: string,
  jobName: string,
  work: (unit: UnitOfWork, db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const afterCommit: Array<() => Promise<void> | void> = [];
  const requestId = `job_${newId().replaceAll('-', '')}`;
  const nudgeDelivery = eventsNudgeAfterCommit(services.wakeups, afterCommit);
  const result = await services.db.kysely.transaction().execute(async (trx) => {
    const unit: UnitOfWork = {
      organizationId,
      requestId,
      db: trx,
      clock: services.clock,
      services,
      async audit(entry) {
        await trx
          .insertInto('audit_log')
          .values({
            id: newId(),
            organization_id: organizationId,
            actor_type: 'system',
            actor_id: `job:${jobName}`,
            credential_id: null,
            operation: jobName,
            request_id: requestId,
            record_type: entry.recordType,
            record_id: entry.recordId,
            before_revision: entry.beforeRevision,
            after_revision: entry.afterRevision,
            created_at: services.clock.now().toISOString(),
          })
          .execute();
      },
      async emit(event) {
        await services.events.record(trx, organizationId, event, { requestId, now: services.clock.now() });
        nudgeDelivery();
      },
      async sendMail(message: MailMessage) {
        await services.mail.enqueue(trx, organizationId, message);
        afterCommit.push(() => services.mail.dispatchPending().then(() => undefined));
      },
      afterCommit(task) {
        afterCommit.push(task);
      },
    };
    return work(unit, trx);
  });
  for (const task of afterCommit) {
    try {
      await task();
    } catch (error) {
      services.logger.error({ err: error, job: jobName }, 'after-commit task failed');
    }
  }
  return result;
}
