import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { DAY } from '../lib/clock.ts';

const BATCH = 500;

/**
 * Retention of the outbox (docs/mail.md, "Retention"): mail that was sent, or given up on, more
 * than `days` ago is deleted, attachments (invoice PDFs) included, in short batches. Mail still
 * pending, being sent, or `kept` (no SMTP configured: the outbox is then the only copy) is never
 * purged. Returns the number of rows deleted; at most `maxBatches` batches per call.
 */
export async function purgeOldMail(
  db: Kysely<Database>,
  now: Date,
  days: number,
  maxBatches = 20,
): Promise<number> {
  const cutoff = new Date(now.getTime() - days * DAY).toISOString();
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const ids = (
      await db
        .selectFrom('mail_outbox')
        .select('id')
        .where('status', 'in', ['sent', 'failed'])
        .where('created_at', '<', cutoff)
        .orderBy('created_at')
        .limit(BATCH)
        .execute()
    ).map((row) => row.id);
    if (ids.length === 0) break;
    // The status is checked again: a row can only leave sent/failed by being deleted, but the
    // condition keeps the delete honest on its own.
    const result = await db
      .deleteFrom('mail_outbox')
      .where('id', 'in', ids)
      .where('status', 'in', ['sent', 'failed'])
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
    if (ids.length < BATCH) break;
  }
  return deleted;
}
