import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * The fencing token of an idempotency claim: a fresh random value per claim and per takeover.
 * Completing (or releasing) a key requires the token this process claimed it with, so a holder
 * that stalled past its lock and was taken over can no longer commit (docs/decisions.md 160).
 * Null on rows written before it.
 */
export async function up(db: Kysely<unknown>, _types: ColumnTypes): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('claim_token', 'text').execute();
}
