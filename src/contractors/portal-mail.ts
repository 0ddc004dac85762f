import { asMinor } from '../db/values.ts';
import { formatMoneyForDisplay, parseCurrency } from '../invoicing/money.ts';
import { agreementWaiting, payoutPaid } from '../mail/templates/index.ts';
import { portalContractor } from '../portal/access.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';
import type { AgreementRow } from './agreement-wire.ts';
import type { PayoutRow } from './payout-wire.ts';

/**
 * What the portal has new for a contractor, mailed in the unit that made it (decision 451): the
 * mail is queued with the change or not at all. Only a contractor who may use the portal now
 * (joined, access on, organization not suspended) gets one; the link is the portal page's plain
 * address, never a token.
 */
async function recipient(unit: UnitOfWork, contractorId: string) {
  const contractor = await portalContractor(unit.db, unit.organizationId, contractorId);
  if (!contractor) return undefined;
  const { email } = await unit.db
    .selectFrom('contractors')
    .select('email')
    .where('organization_id', '=', unit.organizationId)
    .where('id', '=', contractorId)
    .executeTakeFirstOrThrow();
  return { ...contractor, email };
}

const portalUrl = (publicUrl: string, path: string) => `${publicUrl.replace(/\/+$/, '')}${path}`;

/** An agreement was sent: "read and sign it", linking to its portal page. */
export async function mailAgreementWaiting(unit: UnitOfWork, publicUrl: string, agreement: AgreementRow) {
  const to = await recipient(unit, agreement.contractor_id);
  if (!to) return false;
  const mail = agreementWaiting({
    organizationName: to.organizationName,
    contractorName: to.displayName,
    title: agreement.title,
    portalLink: portalUrl(publicUrl, `/portal/agreements/${agreement.id}`),
  });
  await unit.sendMail({ to: [to.email], ...mail });
  return true;
}

/** A payout was marked paid: the amount, period, date and reference, linking to My payments. */
export async function mailPayoutPaid(unit: UnitOfWork, publicUrl: string, payout: PayoutRow) {
  const to = await recipient(unit, payout.contractor_id);
  if (!to || payout.paid_on === null) return false;
  const mail = payoutPaid({
    organizationName: to.organizationName,
    contractorName: to.displayName,
    amountFormatted: formatMoneyForDisplay(parseCurrency(payout.currency), asMinor(payout.amount_minor)),
    periodStart: payout.period_start,
    periodEnd: payout.period_end,
    paidOn: payout.paid_on,
    reference: payout.reference ?? '',
    portalLink: portalUrl(publicUrl, '/portal/payments'),
  });
  await unit.sendMail({ to: [to.email], ...mail });
  return true;
}
