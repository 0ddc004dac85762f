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
import { type IdempotencyScope, resolveIdempotencyKey } from './idempotency.ts';
import { idempotencySettings, runOnce } from './run-once.ts';
import { fileFieldDigest, type StreamedUpload } from './uploads.ts';
import { validateInput } from './validation.ts';

export interface Invocation {
  operation: AnyOperation;
  principal: Principal;
  /** Parsed body or coerced query: validated here. */
  input: unknown;
  idempotencyHeader: string | undefined;
  requestId: string;
  /** Query strings report unknown names as `unknown_parameter`; `page` is a dashboard form. */
  inputSource: 'body' | 'query' | 'tool' | 'page';
  /** The operation's `uploadField`, when the HTTP transport decoded it as the body arrived. */
  upload?: StreamedUpload;
}

/** Facts the transport reports as headers, filled in even when the call fails. */
export interface InvocationMeta {
  rateLimit?: RateLimitState;
  replayed?: boolean;
}

const TRANSPORTS = { body: 'http', query: 'http', tool: 'mcp', page: 'dashboard' } as const;

/**
 * The one pipeline every transport (HTTP, MCP, the dashboard) shares after authentication:
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
  const rate = principal.requestCounted ? undefined : await services.rateLimiter.take(principal.credentialId);
  if (rate) meta.rateLimit = rate;
  if (rate?.retryAfterSeconds !== undefined) {
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
    transport: TRANSPORTS[call.inputSource],
  };
  if (!operation.mutation) {
    const data = await withUnit(services, { ...unitOptions, readOnly: true }, (unit) =>
      operation.run({ ctx: { ...unit, principal, services }, input }),
    );
    return { data };
  }

  const key = resolveIdempotencyKey(call.idempotencyHeader, input.idempotencyKey);
  const { idempotencyKey: _ignored, ...significant } = input;
  const field = operation.uploadField;
  if (field !== undefined && field in significant)
    significant[field] = fileFieldDigest(call.upload, significant[field]);
  const scope: IdempotencyScope = {
    organizationId: principal.organizationId,
    key,
    operation: operation.name,
    requestHash: sha256Hex(canonicalJson(significant)),
  };
  const settings = idempotencySettings(services);
  const sealer = operation.mutation.sealedReplay
    ? await createReplaySealer(
        services.db.kysely,
        services.config.webhooks.secretKey,
        scope.organizationId,
        key,
      )
    : undefined;
  // The idempotency record commits with the change, its audit row, events and mail, and only
  // while this request still holds the key (src/operations/run-once.ts).
  const audited = {
    ...unitOptions,
    audit: operation.mutation.auditOnlyOnChange ? ('onlyOnChange' as const) : ('required' as const),
  };
  const outcome = await runOnce(services, audited, scope, settings, sealer, (unit) =>
    operation.run({ ctx: { ...unit, principal, services, upload: call.upload }, input }),
  ).catch((error: unknown) => {
    throw call.idempotencyHeader === undefined ? error : namingTheHeader(error);
  });
  if (outcome.replayed) meta.replayed = true;
  return outcome.body as { data: unknown };
}

/**
 * An error about the idempotency key names where the key came from (issue 27): the
 * `Idempotency-Key` header when the caller sent it there, not the body field it did not send.
 */
function namingTheHeader(error: unknown): unknown {
  if (!(error instanceof AppError) || error.field !== 'idempotencyKey') return error;
  return new AppError(error.code, error.message.replace('This idempotency key', 'This Idempotency-Key'), {
    field: 'Idempotency-Key',
    ...(error.details === undefined ? {} : { details: error.details }),
    ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
  });
}

function memberActor(principal: Principal): Actor {
  return { type: 'member', memberId: principal.memberId, credentialId: principal.credentialId };
}
