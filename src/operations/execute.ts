import type { Kysely } from 'kysely';
import { AppError } from '../contract/errors.ts';
import type { Database } from '../db/schema.ts';
import { eventsNudgeAfterCommit } from '../jobs/wakeups.ts';
import { canonicalJson, sha256Hex } from '../lib/canonical-json.ts';
import { newId } from '../lib/ids.ts';
import type { MailMessage } from '../mail/message.ts';
import type { Services } from '../services.ts';
import { createReplaySealer } from '../webhooks/endpoint-secrets.ts';
import { checkAccess, checkRestrictedFields } from './access.ts';
import type { EventInput, OperationContext, Principal } from './context.ts';
import type { AnyOperation } from './define.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  type IdempotencyScope,
  releaseIdempotencyKey,
  resolveIdempotencyKey,
} from './idempotency.ts';
import type { RateLimitState } from './rate-limit.ts';
import { validateInput } from './validation.ts';

export interface Invocation {
  operation: AnyOperation;
  principal: Principal;
  /** Parsed body or coerced query: validated here. */
  input: unknown;
  idempotencyHeader: string | undefined;
  requestId: string;
  /** Query strings report unknown names as `unknown_parameter`. */
  inputSource: 'body' | 'query' | 'tool';
}

/** Facts the transport reports as headers, filled in even when the call fails. */
export interface InvocationMeta {
  rateLimit?: RateLimitState;
  replayed?: boolean;
}

/**
 * The one pipeline every transport (HTTP, MCP) shares after authentication:
 * access -> rate limit -> validation -> idempotency -> the operation in one transaction.
 * Returns the response body `{ data }`.
 */
export async function invoke(
  services: Services,
  call: Invocation,
  meta: InvocationMeta = {},
): Promise<{ data: unknown }> {
  const { operation, principal } = call;
  checkAccess(operation, principal);
  const rate = await services.rateLimiter.take(principal.credentialId);
  meta.rateLimit = rate;
  if (rate.retryAfterSeconds !== undefined) {
    throw new AppError('rate_limited', 'Too many requests; retry later.', {
      retryAfterSeconds: rate.retryAfterSeconds,
    });
  }
  const input = validateInput<Record<string, unknown>>(
    operation.input,
    call.input,
    call.inputSource === 'query' ? 'unknown_parameter' : 'unknown_field',
  );
  checkRestrictedFields(operation, principal, input);

  if (!operation.mutation) {
    const ctx = makeContext(services, call, services.db.kysely, []);
    return { data: await operation.run({ ctx, input }) };
  }

  const key = resolveIdempotencyKey(call.idempotencyHeader, input.idempotencyKey);
  const { idempotencyKey: _ignored, ...significant } = input;
  const scope: IdempotencyScope = {
    organizationId: principal.organizationId,
    key,
    operation: operation.name,
    requestHash: sha256Hex(canonicalJson(significant)),
  };
  const settings = {
    now: services.clock.now(),
    ttlMs: services.config.idempotencyTtlMs,
    lockMs: services.config.idempotencyLockMs,
  };
  const sealer = operation.mutation.sealedReplay
    ? await createReplaySealer(
        services.db.kysely,
        services.config.webhooks.secretKey,
        scope.organizationId,
        key,
      )
    : undefined;
  const claim = await claimIdempotencyKey(services.db.kysely, scope, settings, sealer);
  if (claim.kind === 'replay') {
    meta.replayed = true;
    return claim.body as { data: unknown };
  }

  const afterCommit: Array<() => Promise<void> | void> = [];
  let body: { data: unknown };
  try {
    body = await services.db.kysely.transaction().execute(async (trx) => {
      const ctx = makeContext(services, call, trx, afterCommit);
      const result = { data: await operation.run({ ctx, input }) };
      await completeIdempotencyKey(trx, scope, result, sealer);
      return result;
    });
  } catch (error) {
    await releaseIdempotencyKey(services.db.kysely, scope).catch((releaseError: unknown) =>
      services.logger.warn(
        { err: releaseError, requestId: call.requestId },
        'could not release idempotency key',
      ),
    );
    throw error;
  }
  for (const task of afterCommit) {
    try {
      await task();
    } catch (error) {
      services.logger.error({ err: error, requestId: call.requestId }, 'after-commit task failed');
    }
  }
  return body;
}

function makeContext(
  services: Services,
  call: Invocation,
  db: Kysely<Database>,
  afterCommit: Array<() => Promise<void> | void>,
): OperationContext {
  const { principal } = call;
  const isMutation = call.operation.mutation !== undefined;
  const requireMutation = (what: string) => {
    if (!isMutation) throw new Error(`${call.operation.name} is a read and cannot ${what}`);
  };
  // One wake-up of the delivery job per committed transaction, however many events it holds.
  const nudgeDelivery = eventsNudgeAfterCommit(services.wakeups, afterCommit);
  return {
    organizationId: principal.organizationId,
    principal,
    requestId: call.requestId,
    operation: call.operation.name,
    db,
    clock: services.clock,
    services,
    async audit(entry) {
      requireMutation('write audit records');
      await db
        .insertInto('audit_log')
        .values({
          id: newId(),
          organization_id: principal.organizationId,
          actor_type: 'member',
          actor_id: principal.memberId,
          credential_id: principal.credentialId,
          operation: call.operation.name,
          request_id: call.requestId,
          record_type: entry.recordType,
          record_id: entry.recordId,
          before_revision: entry.beforeRevision,
          after_revision: entry.afterRevision,
          created_at: services.clock.now().toISOString(),
        })
        .execute();
    },
    async emit(event: EventInput) {
      requireMutation('emit events');
      await services.events.record(db, principal.organizationId, event, {
        requestId: call.requestId,
        now: services.clock.now(),
      });
      nudgeDelivery();
    },
    async sendMail(message: MailMessage) {
      requireMutation('send mail');
      await services.mail.enqueue(db, principal.organizationId, message);
      afterCommit.push(async () => {
        await services.mail.dispatchPending();
      });
    },
    afterCommit(task) {
      afterCommit.push(task);
    },
  };
}
