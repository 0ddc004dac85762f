import type { AnyOperation } from '../define.ts';
import { downloadAgreementOperation } from './agreements-download.ts';
import { getAgreementOperation } from './agreements-get.ts';
import { listAgreementsOperation } from './agreements-list.ts';
import { sendAgreementOperation } from './agreements-send.ts';
import { voidAgreementOperation } from './agreements-void.ts';
import { createContractor } from './create.ts';
import { updateContractorEmail } from './email-update.ts';
import { getContractor } from './get.ts';
import { approveHoursOperation } from './hours-approve.ts';
import { listHoursOperation } from './hours-list.ts';
import { rejectHoursOperation } from './hours-reject.ts';
import { submitHoursOperation } from './hours-submit.ts';
import { updateHoursOperation } from './hours-update.ts';
import { invitationLink } from './invitations-link.ts';
import { listInvitations } from './invitations-list.ts';
import { revokeInvitation } from './invitations-revoke.ts';
import { inviteContractor } from './invite.ts';
import { listContractors } from './list.ts';
import { createPayoutOperation } from './payouts-create.ts';
import { getPayoutOperation } from './payouts-get.ts';
import { listPayoutsOperation } from './payouts-list.ts';
import { markPayoutPaidOperation } from './payouts-mark-paid.ts';
import { reviewTaxProfile } from './tax-profile-review.ts';
import { taxSummaryOperation } from './tax-summary.ts';
import { createTemplateDraft } from './templates-create-draft.ts';
import { downloadTemplate } from './templates-download.ts';
import { getTemplate } from './templates-get.ts';
import { listTemplates } from './templates-list.ts';
import { uploadTemplate } from './templates-upload.ts';
import { updateContractor } from './update.ts';

export const contractorOperations = [
  listContractors,
  getContractor,
  createContractor,
  updateContractor,
  updateContractorEmail,
  reviewTaxProfile,
  taxSummaryOperation,
] as const satisfies readonly AnyOperation[];

export const invitationOperations = [
  inviteContractor,
  listInvitations,
  revokeInvitation,
  invitationLink,
] as const satisfies readonly AnyOperation[];

export const templateOperations = [
  listTemplates,
  getTemplate,
  downloadTemplate,
  createTemplateDraft,
  uploadTemplate,
] as const satisfies readonly AnyOperation[];

export const hoursOperations = [
  listHoursOperation,
  submitHoursOperation,
  updateHoursOperation,
  approveHoursOperation,
  rejectHoursOperation,
] as const satisfies readonly AnyOperation[];

export const payoutOperations = [
  listPayoutsOperation,
  getPayoutOperation,
  createPayoutOperation,
  markPayoutPaidOperation,
] as const satisfies readonly AnyOperation[];

export const agreementOperations = [
  listAgreementsOperation,
  getAgreementOperation,
  downloadAgreementOperation,
  sendAgreementOperation,
  voidAgreementOperation,
] as const satisfies readonly AnyOperation[];
