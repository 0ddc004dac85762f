import { refusalReason } from './refusal-reasons.ts';
import { checkedDate, type RenderedMail, render } from './render.ts';

/** What went wrong with a recurring invoice's run. */
export type ScheduleRunProblem =
  | {
      /** The run's invoice could not be made or sent (invoice.schedule.run_failed). */
      problem: 'failed';
      /** YYYY-MM-DD, the period the run belongs to. */
      runDate: string;
      /** The stable error code of the refusal (`party_email_missing`, ...). */
      errorCode: string;
      /** Whether a draft was kept, to correct and send by hand. */
      draftKept: boolean;
    }
  | {
      /** Runs missed during downtime beyond the catch-up window (invoice.schedule.run_skipped). */
      problem: 'skipped';
      runDates: readonly string[];
    };

export type ScheduleRunProblemInput = {
  organizationName: string;
  scheduleName: string;
  partyName: string;
} & ScheduleRunProblem;

/**
 * Tells the organization's admin and finance members that a recurring invoice did not go out as
 * planned, so someone bills it by hand; the same facts are in the webhook event.
 */
export function scheduleRunProblem(input: ScheduleRunProblemInput): RenderedMail {
  const name = `the recurring invoice "${input.scheduleName}"`;
  if (input.problem === 'failed') {
    const runDate = checkedDate(input.runDate);
    const reason = refusalReason(input.errorCode);
    return render({
      kind: 'invoice.schedule_run_failed',
      subject: `${input.organizationName}: ${name} could not send its invoice for ${runDate}`,
      blocks: [
        {
          paragraph: `The invoice of ${name} to ${input.partyName} for ${runDate} was not sent: ${reason}.`,
        },
        {
          facts: [
            ['Party', input.partyName],
            ['Period', runDate],
            ['Error code', input.errorCode],
          ],
        },
        {
          paragraph: input.draftKept
            ? 'The invoice was kept as a draft: correct the problem, then send it by hand. The schedule goes on with its next date.'
            : 'No invoice was made for this date: correct the problem and create it by hand if it is still due. The schedule goes on with its next date.',
        },
      ],
    });
  }
  const dates = input.runDates.map(checkedDate);
  return render({
    kind: 'invoice.schedule_run_skipped',
    subject: `${input.organizationName}: ${name} skipped ${dates.length === 1 ? 'one date' : `${dates.length} dates`}`,
    blocks: [
      {
        paragraph: `No worker ran for longer than the catch-up window, so ${name} to ${input.partyName} made no invoice for these dates. Create them by hand if they are still due.`,
      },
      { facts: dates.slice(0, 50).map((date, i) => [`Date ${i + 1}`, date] as [string, string]) },
      ...(dates.length > 50
        ? [{ paragraph: `And ${dates.length - 50} more (all in the invoice.schedule.run_skipped event).` }]
        : []),
    ],
  });
}
