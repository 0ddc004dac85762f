import { checkedDate, type RenderedMail, render } from '../../mail/templates/render.ts';

export type InstallmentDueSoonInput = {
  organizationName: string;
  partyName: string;
  invoiceNumber: string;
  sequence: number;
  installmentCount: number;
  /** The installment's amount, already formatted with its currency. */
  amountFormatted: string;
  /** What is still open on the whole invoice, formatted. */
  balanceFormatted: string;
  /** YYYY-MM-DD. */
  dueDate: string;
};

/** A reminder to the invoiced party that one installment of a payment plan falls due soon. */
export function installmentDueSoon(input: InstallmentDueSoonInput): RenderedMail {
  const dueDate = checkedDate(input.dueDate);
  const which = `installment ${input.sequence} of ${input.installmentCount}`;
  return render({
    kind: 'installment.due_soon',
    subject: `Invoice ${input.invoiceNumber} from ${input.organizationName}: ${which} is due on ${dueDate}`,
    blocks: [
      { paragraph: `Hello ${input.partyName},` },
      {
        paragraph: `This is a reminder that ${which} of the payment plan for invoice ${input.invoiceNumber} from ${input.organizationName} is due on ${dueDate}.`,
      },
      {
        facts: [
          ['Invoice', input.invoiceNumber],
          ['Installment', `${input.sequence} of ${input.installmentCount}`],
          ['Amount due', input.amountFormatted],
          ['Due date', dueDate],
          ['Open balance of the invoice', input.balanceFormatted],
        ],
      },
      { paragraph: 'If you have already paid it, please ignore this message.' },
    ],
  });
}
