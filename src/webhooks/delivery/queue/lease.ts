import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { ClaimedDelivery } from './claimable.ts';
import { clip } from './error-text.ts';

/** Only the holder of the lease (same worker, same attempt, still pending) may move the delivery. */
function fenced(db: Kysely<Database>, claimed: ClaimedDelivery, workerId: string) {
  return db
    .updateTable('webhook_deliveries')
    .where('id', '=', claimed.id)
    .where('organization_id', '=', claimed.organizationId)
    .where('status', '=', 'pending')
    .where('locked_by', '=', workerId)
    .where('attempt_count', '=', claimed.attemptNumber);
}

/** Gives a claim back without counting the attempt (nothing was sent). */
export async function releaseClaim(
  db: Kysely<Database>,
  claimed: ClaimedDelivery,
  workerId: string,
  next: { nextAttemptAt: Date; error: string | null },
): Promise<void> {
  await fenced(db, claimed, workerId)
    .set((eb) => ({
      attempt_count: eb('attempt_count', '-', 1),
      locked_until: null,
      locked_by: null,
      next_attempt_at: next.nextAttemptAt.toISOString(),
      ...(next.error === null ? {} : { last_error: clip(next.error) }),
    }))
    .execute();
}

/**
 * Extends a claim's lease while it is still ours (same worker, same attempt, still pending): a held
 * delivery before it is sent (attempt.ts). False when it is not ours any more (cancelled, or the
 * lease lapsed and another worker claimed it): then nothing may be sent.
 */
export async function renewLease(
  db: Kysely<Database>,
  claimed: ClaimedDelivery,
  workerId: string,
  leaseUntil: Date,
): Promise<boolean> {
  const result = await fenced(db, claimed, workerId)
    .set({ locked_until: leaseUntil.toISOString() })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
