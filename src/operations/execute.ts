import { AppError } from '../contract/errors.ts';
import { canonicalJson, sha256Hex } from '../lib/canonical-json.ts';
import type { RateLimitState } from '../lib/rate-limit.ts';
import type { Services } from '../services.ts';
import type { Actor } from '../unit/actor.ts';
import { withUnit } from '../unit/with-unit.ts';
import { createReplaySealer } from '../webhooks/endpoint-secrets.ts';
import { checkAccess, checkRestrictedFields } from './access.ts';
import type { Principal } from './context.ts';
import type { AnyOperation } from './define.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  type IdempotencyScope,
  releaseIdempotencyKey,
  resolveIdempotencyKey,
} from './idempotency.ts';
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
  const rate = services.rateLimiter.take(principal.credentialId);
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

  const unitOptions = {
    organizationId: principal.organizationId,
    actor: memberActor(principal),
    operation: operation.name,
    requestId: call.requestId,
  };
  if (!operation.mutation) {
    const data = await withUnit(services, { ...unitOptions, readOnly: true }, (unit) =>
      operation.run({ ctx: { ...unit, principal, services }, input }),
    );
    return { data };
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

  try {
    // The idempotency record commits with the change, its audit row, events and mail.
    return await withUnit(services, unitOptions, async (unit) => {
      const result = { data: await operation.run({ ctx: { ...unit, principal, services }, input }) };
      await completeIdempotencyKey(unit.db, scope, result, sealer);
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
}

function memberActor(principal: Principal): Actor {
  return { type: 'member', memberId: principal.memberId, credentialId: principal.credentialId };
}
