import { type Kysely, sql } from 'kysely';
import { AppError } from '../contract/errors.ts';
import { IDEMPOTENCY_HEADER_MAX, IDEMPOTENCY_HEADER_MIN } from '../contract/formats.ts';
import type { DialectName } from '../db/database.ts';
import { PREPARED } from '../db/pg-prepared.ts';
import type { Database } from '../db/schema.ts';
import { asIso, asJson, dbJson } from '../db/values.ts';
import { newId } from '../lib/ids.ts';
import type { FinalStatement } from '../unit/pending-writes.ts';

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
  /** Row locks (and so SKIP LOCKED on takeover) exist on PostgreSQL only. */
  dialect: DialectName;
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

/** `token` fences the claim: only its holder may complete or release the key. */
export type Claim = { kind: 'claimed'; token: string } | { kind: 'replay'; body: unknown };

/**
 * Claims the key before the operation runs. Outcomes: claimed (run it, then complete with the
 * token), replay (return the stored result), or a refusal (different request, or the first one
 * still running). `db` is the pool (the claim commits on its own, PostgreSQL) or the effect's
 * transaction (SQLite); see src/operations/run-once.ts.
 */
export async function claimIdempotencyKey(
  db: Kysely<Database>,
  scope: IdempotencyScope,
  settings: IdempotencySettings,
  sealer?: ReplaySealer,
): Promise<Claim> {
  const nowIso = settings.now.toISOString();
  const lockedUntil = new Date(settings.now.getTime() + settings.lockMs).toISOString();
  const expiresAt = new Date(settings.now.getTime() + settings.ttlMs).toISOString();
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const token = newId();
    // Hand-written: the claim runs on every mutation, and the builder costs more CPU than it.
    const inserted =
      await sql`${sql.raw(PREPARED)}insert into idempotency_keys (organization_id, key, operation, request_hash,
      state, locked_until, claim_token, response_status, response_body, created_at, expires_at)
      values (${scope.organizationId}, ${scope.key}, ${scope.operation}, ${scope.requestHash}, 'running',
      ${lockedUntil}, ${token}, null, null, ${nowIso}, ${expiresAt})
      on conflict (organization_id, key) do nothing`.execute(db);
    if (Number(inserted.numAffectedRows ?? 0n) === 1) return { kind: 'claimed', token };

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
      throw inProgress();
    }
    // The holder's lock ran out (its process died or stalled): take the key over, once, with a new
    // token, so the old holder can no longer complete it. A holder inside its completing
    // transaction keeps the row locked: skip it (409, retry) rather than wait on a stalled one.
    let takeover = db
      .updateTable('idempotency_keys')
      .set({ locked_until: lockedUntil, claim_token: token })
      .where('organization_id', '=', scope.organizationId)
      .where('key', '=', scope.key)
      .where('state', '=', 'running')
      .where('locked_until', '=', row.locked_until);
    if (settings.dialect === 'postgres') {
      takeover = takeover.where('key', 'in', (eb) =>
        eb
          .selectFrom('idempotency_keys')
          .select('key')
          .where('organization_id', '=', scope.organizationId)
          .where('key', '=', scope.key)
          .forUpdate()
          .skipLocked(),
      );
    }
    const taken = await takeover.executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return { kind: 'claimed', token };
  }
  throw inProgress();
}

function inProgress(message = 'A request with this idempotency key is still being processed.'): AppError {
  return new AppError('idempotency_in_progress', message, { field: 'idempotencyKey', retryAfterSeconds: 1 });
}

function storedResult(stored: unknown, sealer: ReplaySealer | undefined): unknown {
  const replay = (stored as { replay?: unknown } | null)?.replay;
  if (typeof replay === 'string' && Object.keys(stored as object).length === 1) return JSON.parse(replay);
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

/**
 * Stores the result inside the operation's transaction: the effect and its record commit
 * together, and only while `token` still holds the claim. A holder that was taken over (it stalled
 * past its lock) updates no row, and the check's error rolls its whole transaction back. The unit
 * runs it as its last statement (src/unit/pending-writes.ts), on PostgreSQL in one round trip with
 * the audit rows and events.
 */
export function idempotencyCompletion(
  scope: IdempotencyScope,
  token: string,
  body: unknown,
  sealer?: ReplaySealer,
): FinalStatement {
  // The answer is kept as its JSON text: PostgreSQL's jsonb reorders keys, and a replay must be
  // byte-identical to the first answer on both databases (issue 27).
  const text = JSON.stringify(body);
  const stored = sealer ? { sealed: sealer.seal(text) } : { replay: text };
  return {
    statement: sql`update idempotency_keys set state = 'completed', response_status = 200,
      response_body = ${dbJson(stored)} where organization_id = ${scope.organizationId}
      and key = ${scope.key} and state = 'running' and claim_token = ${token}`,
    check(changed) {
      if (changed !== 1) {
        throw inProgress('This request ran past its idempotency lock and another request took the key over.');
      }
    },
  };
}

/**
 * A failed request changed nothing, so its key is released and may be retried (see
 * docs/decisions.md). Only the holder's own claim is released; false when the claim was no
 * longer this token's (taken over meanwhile).
 */
export async function releaseIdempotencyKey(
  db: Kysely<Database>,
  scope: IdempotencyScope,
  token: string,
): Promise<boolean> {
  const deleted = await db
    .deleteFrom('idempotency_keys')
    .where('organization_id', '=', scope.organizationId)
    .where('key', '=', scope.key)
    .where('state', '=', 'running')
    .where('claim_token', '=', token)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}

/**
 * The answer for a holder that lost its claim: the stored result of the request that took the key
 * over when it has completed (the client then sees one answer, whichever process it asked), else
 * 409 idempotency_in_progress.
 */
export async function answerAfterLostClaim(
  db: Kysely<Database>,
  scope: IdempotencyScope,
  sealer?: ReplaySealer,
): Promise<unknown> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['operation', 'request_hash', 'state', 'response_body'])
    .where('organization_id', '=', scope.organizationId)
    .where('key', '=', scope.key)
    .executeTakeFirst();
  if (
    row?.state === 'completed' &&
    row.operation === scope.operation &&
    row.request_hash === scope.requestHash
  ) {
    return storedResult(asJson(row.response_body), sealer);
  }
  throw inProgress();
}

/** Housekeeping for the worker: drops keys past their retention. */
export async function purgeExpiredIdempotencyKeys(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<', now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
