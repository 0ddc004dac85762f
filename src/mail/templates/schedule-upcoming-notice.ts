import { checkedDate, type RenderedMail, render } from './render.ts';

export type ScheduleUpcomingNoticeInput = {
  organizationName: string;
  scheduleType: 'recurring-invoice' | 'payment-plan';
  /** The schedule's name as the organization sees it. */
  scheduleName: string;
  partyName: string;
  /** Amount of the next invoice, already formatted with its currency. */
  amountFormatted: string;
  /** YYYY-MM-DD, the day the next invoice is prepared and sent. */
  nextRunDate: string;
};

const SCHEDULE_LABELS = {
  'recurring-invoice': 'recurring invoice',
  'payment-plan': 'payment plan',
} as const satisfies Record<ScheduleUpcomingNoticeInput['scheduleType'], string>;

/**
 * Tells the organization's finance people that a schedule is about to invoice someone,
 * while there is still time to pause it.
 */
export function scheduleUpcomingNotice(input: ScheduleUpcomingNoticeInput): RenderedMail {
  const label = SCHEDULE_LABELS[input.scheduleType];
  const nextRunDate = checkedDate(input.nextRunDate);
  return render({
    kind: 'invoice.schedule_upcoming',
    subject: `${input.organizationName}: the ${label} "${input.scheduleName}" sends its next invoice on ${nextRunDate}`,
    blocks: [
      {
        paragraph: `The ${label} "${input.scheduleName}" of ${input.organizationName} will prepare and send its next invoice to ${input.partyName} on ${nextRunDate}.`,
      },
      {
        facts: [
          ['Party', input.partyName],
          ['Amount', input.amountFormatted],
          ['Date', nextRunDate],
        ],
      },
      {
        paragraph:
          'To skip it, pause the schedule before then: nothing is prepared or sent while it is paused.',
      },
    ],
  });
}
