import { type Kysely, sql } from 'kysely';

/**
 * Issue 29 part 2 (decision 422): `bank_transactions_attention` serves `attention.mine`, which reads
 * card transactions only (joined to the member's cards by `card_id`), yet it held every
 * transaction without a receipt, bank lines (no card) included: one more index ordered by date for
 * each imported bank line to update. The index now holds card transactions only; a join or
 * filter on `card_id` implies `card_id is not null`, so both databases still choose it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('bank_transactions_attention').execute();
  await db.schema
    .createIndex('bank_transactions_attention')
    .on('bank_transactions')
    .columns(['card_id', 'booked_date', 'id'])
    .where(sql<boolean>`card_id is not null and receipt_id is null and status <> 'excluded'`)
    .execute();
}
