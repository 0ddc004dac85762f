import type { Kysely } from 'kysely';
import { AppError } from '../contract/errors.ts';
import { IDEMPOTENCY_HEADER_MAX, IDEMPOTENCY_HEADER_MIN } from '../contract/formats.ts';
import type { Database } from '../db/schema.ts';
import { asIso, asJson, dbJson } from '../db/values.ts';

export interface IdempotencyScope {
  organizationId: string;
  key: string;
  operation: string;
  requestHash: string;
}

export interface IdempotencySettings {
  now: Date;
  ttlMs: number;
  lockMs: number;
}

/** Header and body keys must agree; at least one is required for a mutation. */
export function resolveIdempotencyKey(header: string | undefined, bodyKey: unknown): string {
  if (header !== undefined) {
    if (header.length < IDEMPOTENCY_HEADER_MIN || header.length > IDEMPOTENCY_HEADER_MAX) {
      throw new AppError(
        'invalid_input',
        `Idempotency-Key must be ${IDEMPOTENCY_HEADER_MIN}-${IDEMPOTENCY_HEADER_MAX} characters.`,
        {
          field: 'Idempotency-Key',
        },
      );
    }
    if (bodyKey !== undefined && bodyKey !== header) {
      throw new AppError(
        'idempotency_key_mismatch',
        'The Idempotency-Key header and body idempotencyKey differ.',
        {
          field: 'idempotencyKey',
        },
      );
    }
    return header;
  }
  if (typeof bodyKey === 'string') return bodyKey;
  throw new AppError('idempotency_key_required', 'Send an Idempotency-Key header or a body idempotencyKey.', {
    field: 'idempotencyKey',
  });
}

export type Claim = { kind: 'claimed' } | { kind: 'replay'; body: unknown };

/**
 * Claims the key before the operation runs, in its own committed statement, so a concurrent
 * request in any process sees it. Outcomes: claimed (run it), replay (return the stored result),
 * or a refusal (different request, or the first one still running).
 */
export async function claimIdempotencyKey(
  db: Kysely<Database>,
  scope: IdempotencyScope,
  settings: IdempotencySettings,
  sealer?: ReplaySealer,
): Promise<Claim> {
  const nowIso = settings.now.toISOString();
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({
        organization_id: scope.organizationId,
        key: scope.key,
        operation: scope.operation,
        request_hash: scope.requestHash,
        state: 'running',
        locked_until: new Date(settings.now.getTime() + settings.lockMs).toISOString(),
        response_status: null,
        response_body: null,
        created_at: nowIso,
        expires_at: new Date(settings.now.getTime() + settings.ttlMs).toISOString(),
      })
      .onConflict((oc) => oc.columns(['organization_id', 'key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return { kind: 'claimed' };

    const row = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('organization_id', '=', scope.organizationId)
      .where('key', '=', scope.key)
      .executeTakeFirst();
    if (!row) continue; // released between our insert and read: try again
    if (asIso(row.expires_at) <= nowIso) {
      await deleteKey(db, scope, row.expires_at);
      continue;
    }
    if (row.operation !== scope.operation || row.request_hash !== scope.requestHash) {
      throw new AppError(
        'idempotency_key_reused',
        'This idempotency key was already used for a different request.',
        {
          field: 'idempotencyKey',
        },
      );
    }
    if (row.state === 'completed')
      return { kind: 'replay', body: storedResult(asJson(row.response_body), sealer) };
    if (asIso(row.locked_until) > nowIso) {
      throw new AppError(
        'idempotency_in_progress',
        'A request with this idempotency key is still being processed.',
        {
          field: 'idempotencyKey',
          retryAfterSeconds: 1,
        },
      );
    }
    // The first request's process died mid-way (nothing committed): take the key over, once.
    const taken = await db
      .updateTable('idempotency_keys')
      .set({ locked_until: new Date(settings.now.getTime() + settings.lockMs).toISOString() })
      .where('organization_id', '=', scope.organizationId)
      .where('key', '=', scope.key)
      .where('state', '=', 'running')
      .where('locked_until', '=', row.locked_until)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return { kind: 'claimed' };
  }
  throw new AppError(
    'idempotency_in_progress',
    'A request with this idempotency key is still being processed.',
    {
      field: 'idempotencyKey',
      retryAfterSeconds: 1,
    },
  );
}

function storedResult(stored: unknown, sealer: ReplaySealer | undefined): unknown {
  const sealed = (stored as { sealed?: unknown } | null)?.sealed;
  if (!sealer || typeof sealed !== 'string') return stored;
  let text: string;
  try {
    text = sealer.open(sealed);
  } catch {
    // Sealed under a key no longer configured: the effect stands, its answer cannot be shown.
    throw new AppError(
      'replay_unavailable',
      'This request already took effect, but its stored answer cannot be opened with the current secret key.',
      { field: 'idempotencyKey' },
    );
  }
  return JSON.parse(text);
}

async function deleteKey(db: Kysely<Database>, scope: IdempotencyScope, expiresAt: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('organization_id', '=', scope.organizationId)
    .where('key', '=', scope.key)
    .where('expires_at', '=', expiresAt)
    .execute();
}

/** Seals the stored result of an operation whose answer holds a secret (MutationRules.sealedReplay). */
export interface ReplaySealer {
  seal(text: string): string;
  open(sealed: string): string;
}

/** Stores the result inside the operation's transaction: the effect and its record commit together. */
export async function completeIdempotencyKey(
  trx: Kysely<Database>,
  scope: IdempotencyScope,
  body: unknown,
  sealer?: ReplaySealer,
): Promise<void> {
  const stored = sealer ? { sealed: sealer.seal(JSON.stringify(body)) } : body;
  await trx
    .updateTable('idempotency_keys')
    .set({ state: 'completed', response_status: 200, response_body: dbJson(stored) })
    .where('organization_id', '=', scope.organizationId)
    .where('key', '=', scope.key)
    .execute();
}

/** A failed request changed nothing, so its key is released and may be retried (see docs/decisions.md). */
export async function releaseIdempotencyKey(db: Kysely<Database>, scope: IdempotencyScope): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('organization_id', '=', scope.organizationId)
    .where('key', '=', scope.key)
    .where('state', '=', 'running')
    .execute();
}

/** Housekeeping for the worker: drops keys past their retention. */
export async function purgeExpiredIdempotencyKeys(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<', now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
