import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';

/** invoicing_notices kind of a refused scheduled send (target: the invoice, date: its send date). */
export const SCHEDULED_SEND_FAILED = 'invoice.scheduled_send_failed';

/**
 * Records that a notice went out; false when it already had. The unique key
 * (target_type, target_id, kind, target_date) is what makes every notice and reminder happen
 * once, whatever the number of workers: a racing insert waits for the first and then does nothing.
 */
export async function claimNotice(
  unit: UnitOfWork,
  target: { type: string; id: string; kind: string; date: string; at?: string },
): Promise<boolean> {
  const result = await unit.db
    .insertInto('invoicing_notices')
    .values({
      id: newId(),
      organization_id: unit.organizationId,
      target_type: target.type,
      target_id: target.id,
      kind: target.kind,
      target_date: target.date,
      created_at: target.at ?? unit.clock.now().toISOString(),
    })
    .onConflict((oc) => oc.columns(['target_type', 'target_id', 'kind', 'target_date']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** Members who can act on invoices and schedules: active admins and finance members. */
export async function staffEmails(db: Kysely<Database>, organizationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('members')
    .select('email')
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'active')
    .where('role', 'in', ['admin', 'finance'])
    .orderBy('email')
    .execute();
  return rows.map((row) => row.email);
}

/**
 * Forgets a recorded scheduled-send refusal: called when the draft changes (or, with `olderThan`,
 * when its party changed after the refusal), so the job tries again at its next run and reports it
 * again if it is still refused.
 */
export async function clearSendRefusal(
  unit: UnitOfWork,
  invoiceId: string,
  olderThan?: string,
): Promise<void> {
  let query = unit.db
    .deleteFrom('invoicing_notices')
    .where('organization_id', '=', unit.organizationId)
    .where('target_type', '=', 'invoice')
    .where('target_id', '=', invoiceId)
    .where('kind', '=', SCHEDULED_SEND_FAILED);
  if (olderThan !== undefined) query = query.where('created_at', '<', olderThan);
  await query.execute();
}
