import { AppError } from '../../contract/errors.ts';
import { scheduledSendFailed } from '../../mail/templates/index.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { withUnit } from '../../unit/with-unit.ts';
import { addDays, localDateIn } from '../calendar.ts';
import { InvoicingError } from '../errors.ts';
import { formatMoneyForDisplay, parseCurrency } from '../money.ts';
import type { InvoicingRuntime } from '../schedules/work.ts';
import { invoiceEventData } from './model.ts';
import { claimNotice, clearSendRefusal, SCHEDULED_SEND_FAILED, staffEmails } from './notices.ts';
import { loadInvoice, loadOrganization, loadParty } from './queries.ts';
import { sendInvoice } from './send.ts';

export const SEND_SCHEDULED_JOB = 'invoices.send_scheduled';

/**
 * Sends drafts whose scheduledSendDate has come (in the organization's time zone), each in its
 * own transaction as the system actor. Safe with several workers: the send is a compare-and-set
 * on the revision, so a draft sent by another worker fails here with a conflict and is skipped.
 *
 * A refused send (party without email) is recorded once as an `invoice.scheduled_send_failed`
 * notice row, with that event and an email to the admin and finance members. A recorded draft
 * leaves the job's window, so it neither blocks the drafts behind it nor is retried on every
 * run: it is tried again only after the draft changes (updateDraftInvoice deletes the row) or its
 * party changes (parties.updated_at later than the row). Any other error (database down) is
 * logged and the draft stays due. Returns how many drafts were handled (sent or recorded).
 */
export async function sendScheduledDrafts(
  services: InvoicingRuntime,
  options: { limit?: number } = {},
): Promise<number> {
  const now = services.clock.now();
  // No zone is more than a day ahead of UTC, so this bound never misses a due draft.
  const latest = addDays(localDateIn('UTC', now), 1);
  const candidates = await services.db.kysely
    .selectFrom('invoices as i')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .innerJoin('parties as p', 'p.id', 'i.party_id')
    .select(['i.id', 'i.organization_id', 'i.revision', 'i.scheduled_send_date', 'o.time_zone'])
    .where('i.status', '=', 'draft')
    .where('i.scheduled_send_date', 'is not', null)
    .where('i.scheduled_send_date', '<=', latest)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('invoicing_notices as n')
            .select('n.id')
            .where('n.target_type', '=', 'invoice')
            .whereRef('n.target_id', '=', 'i.id')
            .where('n.kind', '=', SCHEDULED_SEND_FAILED)
            .whereRef('n.created_at', '>=', 'p.updated_at'),
        ),
      ),
    )
    .orderBy('i.scheduled_send_date')
    .orderBy('i.id')
    .limit(options.limit ?? 50)
    .execute();
  let handled = 0;
  for (const row of candidates) {
    if (row.scheduled_send_date === null || row.scheduled_send_date > localDateIn(row.time_zone, now))
      continue;
    const item = { invoiceId: row.id, job: SEND_SCHEDULED_JOB };
    try {
      await withUnit(
        services,
        {
          organizationId: row.organization_id,
          actor: { type: 'job', job: SEND_SCHEDULED_JOB },
          operation: SEND_SCHEDULED_JOB,
        },
        (unit) => sendInvoice(unit, row.id, { expectedRevision: row.revision }),
      );
      handled += 1;
    } catch (error) {
      if (!(error instanceof AppError || error instanceof InvoicingError)) {
        services.logger.error({ err: error, ...item }, 'scheduled invoice not sent');
        continue;
      }
      services.logger.info({ code: error.code, ...item }, 'scheduled invoice refused');
      try {
        handled += await withUnit(
          services,
          {
            organizationId: row.organization_id,
            actor: { type: 'job', job: SEND_SCHEDULED_JOB },
            operation: SEND_SCHEDULED_JOB,
          },
          (unit) => recordRefusal(unit, row.id, row.revision, error.code),
        );
      } catch (recordError) {
        services.logger.error({ err: recordError, ...item }, 'scheduled send refusal not recorded');
      }
    }
  }
  return handled;
}

/**
 * Records a refused scheduled send once per refusal, unless the draft changed since it was read
 * (then the next run simply tries the new version). A refusal recorded before the party's last
 * change is stale and replaced, so a party fixed and broken again is reported again.
 */
async function recordRefusal(
  unit: UnitOfWork,
  invoiceId: string,
  revision: number,
  errorCode: string,
): Promise<number> {
  const invoice = await loadInvoice(unit.db, unit.organizationId, invoiceId);
  if (invoice?.status !== 'draft' || invoice.revision !== revision || invoice.scheduledSendDate === null) {
    return 0;
  }
  const party = await loadParty(unit.db, unit.organizationId, invoice.partyId);
  if (!party) return 0;
  // The party may have been fixed between the refused send and now: then the next run sends.
  if (errorCode === 'party_email_missing' && party.email !== null) return 0;
  await clearSendRefusal(unit, invoiceId, party.updatedAt);
  // Stamped with the version of the party it was judged against, not with this worker's clock:
  // any later party change (a later updated_at) reopens the draft, whatever the clocks say.
  const target = {
    type: 'invoice',
    id: invoiceId,
    kind: SCHEDULED_SEND_FAILED,
    date: invoice.scheduledSendDate,
    at: party.updatedAt,
  };
  // Another worker recorded it first: that one reports it.
  if (!(await claimNotice(unit, target))) return 0;
  await unit.emit({
    type: SCHEDULED_SEND_FAILED,
    subject: { type: 'invoice', id: invoiceId },
    data: { ...invoiceEventData(invoice), errorCode },
  });
  const recipients = await staffEmails(unit.db, unit.organizationId);
  if (recipients.length > 0) {
    const organization = await loadOrganization(unit.db, unit.organizationId);
    const mail = scheduledSendFailed({
      organizationName: organization.name,
      partyName: party.name,
      totalFormatted: formatMoneyForDisplay(parseCurrency(invoice.currency), invoice.totalMinor),
      issueDate: invoice.issueDate,
      scheduledSendDate: invoice.scheduledSendDate,
      errorCode,
    });
    await unit.sendMail({ to: recipients, ...mail });
  }
  return 1;
}
