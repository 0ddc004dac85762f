import { refusalReason } from './refusal-reasons.ts';
import { checkedDate, type RenderedMail, render } from './render.ts';

export type ScheduledSendFailedInput = {
  organizationName: string;
  partyName: string;
  /** The draft's total, already formatted with its currency. */
  totalFormatted: string;
  /** YYYY-MM-DD. */
  issueDate: string;
  /** YYYY-MM-DD, the day it should have gone out. */
  scheduledSendDate: string;
  /** The stable error code of the refusal (`party_email_missing`, ...). */
  errorCode: string;
};

/**
 * Tells the organization's admin and finance members that a draft scheduled to go out today was
 * not sent, and what happens next (the same facts are in invoice.scheduled_send_failed).
 */
export function scheduledSendFailed(input: ScheduledSendFailedInput): RenderedMail {
  const scheduled = checkedDate(input.scheduledSendDate);
  const reason = refusalReason(input.errorCode);
  return render({
    kind: 'invoice.scheduled_send_failed',
    subject: `${input.organizationName}: the invoice to ${input.partyName} scheduled for ${scheduled} was not sent`,
    blocks: [
      {
        paragraph: `The draft invoice to ${input.partyName} scheduled to be sent on ${scheduled} was not sent: ${reason}.`,
      },
      {
        facts: [
          ['Party', input.partyName],
          ['Total', input.totalFormatted],
          ['Issue date', checkedDate(input.issueDate)],
          ['Scheduled for', scheduled],
          ['Error code', input.errorCode],
        ],
      },
      {
        paragraph:
          "It stays a draft and is not tried again on its own until the draft or its party is changed: correct the problem (for example add the party's email address) and it goes out at the next run, or send it by hand.",
      },
    ],
  });
}
