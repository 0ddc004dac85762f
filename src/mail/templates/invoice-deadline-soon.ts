import { checkedDate, type RenderedMail, render } from './render.ts';

export type InvoiceDeadlineSoonInput = {
  organizationName: string;
  partyName: string;
  number: string;
  /** What is still to pay, already formatted with its currency. */
  balanceFormatted: string;
  /** YYYY-MM-DD. */
  dueDate: string;
};

/** A reminder to the invoiced party that an unpaid invoice falls due soon. */
export function invoiceDeadlineSoon(input: InvoiceDeadlineSoonInput): RenderedMail {
  const dueDate = checkedDate(input.dueDate);
  return render({
    kind: 'invoice.deadline_soon',
    subject: `Invoice ${input.number} from ${input.organizationName} is due on ${dueDate}`,
    blocks: [
      { paragraph: `Hello ${input.partyName},` },
      {
        paragraph: `This is a reminder that invoice ${input.number} from ${input.organizationName} is due on ${dueDate}.`,
      },
      {
        facts: [
          ['Invoice', input.number],
          ['Balance due', input.balanceFormatted],
          ['Due date', dueDate],
        ],
      },
      { paragraph: 'If you have already paid it, please ignore this message.' },
    ],
  });
}
