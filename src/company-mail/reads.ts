import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import { auditActor } from '../unit/actor.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';

/** Reads listed with a letter: the newest ones (the whole record stays in `mail_item_reads`). */
export const LISTED_READS = 100;

/**
 * Every read of a letter (its details or its files) leaves a row: who (actor and credential),
 * how (operation, request id), when, which letter. Written outside any transaction a read has (a
 * read opens none): one insert, committed on its own before the letter is returned.
 */
export async function recordMailRead(unit: UnitOfWork, itemId: string): Promise<void> {
  await unit.db
    .insertInto('mail_item_reads')
    .values({
      id: newId(),
      organization_id: unit.organizationId,
      item_id: itemId,
      ...auditActor(unit.actor),
      operation: unit.operation,
      request_id: unit.requestId,
      read_at: unit.clock.now().toISOString(),
    })
    .execute();
}

export function listMailReads(db: Kysely<Database>, organizationId: string, itemId: string) {
  return db
    .selectFrom('mail_item_reads')
    .select(['actor_type', 'actor_id', 'credential_id', 'operation', 'request_id', 'read_at'])
    .where('organization_id', '=', organizationId)
    .where('item_id', '=', itemId)
    .orderBy('read_at', 'desc')
    .orderBy('id', 'desc')
    .limit(LISTED_READS)
    .execute();
}

export async function countMailReads(
  db: Kysely<Database>,
  organizationId: string,
  itemId: string,
): Promise<number> {
  const row = await db
    .selectFrom('mail_item_reads')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organization_id', '=', organizationId)
    .where('item_id', '=', itemId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
