export { type ContractorEmailChangedInput, contractorEmailChanged } from './contractor-email-changed.ts';
export { type ContractorInvitationInput, contractorInvitation } from './contractor-invitation.ts';
export {
  type AgreementWaitingInput,
  agreementWaiting,
  type PayoutPaidInput,
  payoutPaid,
} from './contractor-portal-news.ts';
export { type InvoiceDeadlineSoonInput, invoiceDeadlineSoon } from './invoice-deadline-soon.ts';
export { type InvoiceSentInput, invoiceFilename, invoiceSent } from './invoice-sent.ts';
export { type MemberAddedInput, memberAdded } from './member-added.ts';
export { escapeHtml, type RenderedMail } from './render.ts';
export {
  type ScheduleRunProblem,
  type ScheduleRunProblemInput,
  scheduleRunProblem,
} from './schedule-run-problem.ts';
export { type ScheduleUpcomingNoticeInput, scheduleUpcomingNotice } from './schedule-upcoming-notice.ts';
export { type ScheduledSendFailedInput, scheduledSendFailed } from './scheduled-send-failed.ts';
export { type WebhookEndpointDisabledInput, webhookEndpointDisabled } from './webhook-endpoint-disabled.ts';
