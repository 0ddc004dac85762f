import type { Services } from '../services.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';
import { type UnitOptions, withUnit } from '../unit/with-unit.ts';
import {
  answerAfterLostClaim,
  claimIdempotencyKey,
  type IdempotencyScope,
  type IdempotencySettings,
  idempotencyCompletion,
  type ReplaySealer,
  releaseIdempotencyKey,
} from './idempotency.ts';
import { stallAfterClaimInTests } from './test-stall.ts';

/** The idempotency settings of this moment and this deployment (TTL, lock, dialect). */
export function idempotencySettings(services: Services): IdempotencySettings {
  return {
    now: services.clock.now(),
    ttlMs: services.config.idempotencyTtlMs,
    lockMs: services.config.idempotencyLockMs,
    dialect: services.db.dialect,
  };
}

export type Outcome = { replayed: true; body: unknown } | { replayed: false; body: { data: unknown } };

/**
 * Runs a mutation at most once per idempotency key, across processes and stalls (decision 175).
 *
 * - SQLite: every write transaction is BEGIN IMMEDIATE and holds the one write lock, so the claim,
 *   the effect and the completion are one transaction and one commit: no other process can see,
 *   let alone take over, a claim whose effect has not committed.
 * - PostgreSQL: the claim commits on its own first, so a retry on another process sees it (409
 *   while the holder lives, takeover once its lock ran out) instead of waiting on an uncommitted
 *   row that a stalled holder could keep open. The effect's transaction ends by completing the key
 *   with the claim's fencing token; a holder that was taken over meanwhile updates no row and its
 *   whole transaction rolls back, so only one effect ever commits.
 */
export async function runOnce(
  services: Services,
  unitOptions: UnitOptions,
  scope: IdempotencyScope,
  settings: IdempotencySettings,
  sealer: ReplaySealer | undefined,
  work: (unit: UnitOfWork) => Promise<unknown>,
): Promise<Outcome> {
  const claimFirst = settings.dialect === 'postgres';
  let token: string | undefined;
  if (claimFirst) {
    const claim = await claimIdempotencyKey(services.db.kysely, scope, settings, sealer);
    if (claim.kind === 'replay') return { replayed: true, body: claim.body };
    token = claim.token;
    stallAfterClaimInTests(scope.key);
  }
  try {
    return await withUnit(services, unitOptions, async (unit): Promise<Outcome> => {
      let held = token;
      if (held === undefined) {
        const claim = await claimIdempotencyKey(unit.db, scope, settings, sealer);
        if (claim.kind === 'replay') {
          unit.changedNothing();
          return { replayed: true, body: claim.body };
        }
        held = claim.token;
        stallAfterClaimInTests(scope.key);
      }
      const body = { data: await work(unit) };
      // The completion is the unit's last statement; on PostgreSQL it carries the audit row,
      // events and the webhook fan-out's look-up with it (one round trip, src/unit/pending-writes.ts).
      await unit.endWith(idempotencyCompletion(scope, held, body, sealer));
      return { replayed: false, body };
    });
  } catch (error) {
    // On SQLite the claim rolled back with the effect: nothing to release.
    if (token === undefined) throw error;
    let released: boolean;
    try {
      released = await releaseIdempotencyKey(services.db.kysely, scope, token);
    } catch (releaseError) {
      services.logger.warn(
        { err: releaseError, requestId: unitOptions.requestId },
        'could not release idempotency key',
      );
      throw error;
    }
    if (released) throw error;
    // The claim was taken over while this request stalled: whatever it ran rolled back, and the
    // client gets the answer of the request that holds the key now (or 409 while it runs).
    return { replayed: true, body: await answerAfterLostClaim(services.db.kysely, scope, sealer) };
  }
}
