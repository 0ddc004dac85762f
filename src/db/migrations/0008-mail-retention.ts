import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/** The mail purge's scan (src/mail/retention.ts): sent or failed rows by age, without reading them. */
export async function up(db: Kysely<unknown>, _types: ColumnTypes): Promise<void> {
  await db.schema
    .createIndex('mail_outbox_status_created')
    .on('mail_outbox')
    .columns(['status', 'created_at'])
    .execute();
}
