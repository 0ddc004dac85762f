import { withSystemUnit } from '../../jobs/system-context.ts';
import type { Services } from '../../services.ts';
import { addDays, localDateIn } from '../calendar.ts';
import { sendInvoice } from './send.ts';

/**
 * Sends drafts whose scheduledSendDate has come (in the organization's time zone), each in its
 * own transaction as the system actor. A draft that cannot be sent (party without email) stays
 * a draft and is logged; it is tried again on later runs until someone fixes or unschedules it.
 * Returns how many were sent. Safe with several workers: the send is a compare-and-set on the
 * revision, so a draft sent by another worker fails here with a conflict and is skipped.
 */
export async function sendScheduledDrafts(
  services: Services,
  options: { limit?: number } = {},
): Promise<number> {
  const now = services.clock.now();
  // No zone is more than a day ahead of UTC, so this bound never misses a due draft.
  const latest = addDays(localDateIn('UTC', now), 1);
  const candidates = await services.db.kysely
    .selectFrom('invoices as i')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .select(['i.id', 'i.organization_id', 'i.revision', 'i.scheduled_send_date', 'o.time_zone'])
    .where('i.status', '=', 'draft')
    .where('i.scheduled_send_date', 'is not', null)
    .where('i.scheduled_send_date', '<=', latest)
    .orderBy('i.scheduled_send_date')
    .orderBy('i.id')
    .limit(options.limit ?? 50)
    .execute();
  let sent = 0;
  for (const row of candidates) {
    if (row.scheduled_send_date === null || row.scheduled_send_date > localDateIn(row.time_zone, now))
      continue;
    try {
      await withSystemUnit(services, row.organization_id, 'invoices.send_scheduled', (unit) =>
        sendInvoice(unit, row.id, { expectedRevision: row.revision }),
      );
      sent += 1;
    } catch (error) {
      services.logger.warn({ err: error, invoiceId: row.id }, 'scheduled invoice not sent');
    }
  }
  return sent;
}
