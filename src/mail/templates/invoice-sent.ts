import { checkedDate, type RenderedMail, render } from './render.ts';

export type InvoiceSentInput = {
  organizationName: string;
  partyName: string;
  /** The invoice number as shown to the customer. */
  number: string;
  /** The total, already formatted with its currency (money formatting is not the mail layer's job). */
  totalFormatted: string;
  /** YYYY-MM-DD. */
  dueDate: string;
  /** The rendered invoice, attached byte for byte. */
  pdf: Buffer;
};

/** Sent to the invoiced party with the invoice PDF attached. */
export function invoiceSent(input: InvoiceSentInput): RenderedMail {
  return render({
    kind: 'invoice.sent',
    subject: `Invoice ${input.number} from ${input.organizationName}`,
    blocks: [
      { paragraph: `Hello ${input.partyName},` },
      { paragraph: `${input.organizationName} sent you invoice ${input.number}. The PDF is attached.` },
      {
        facts: [
          ['Invoice', input.number],
          ['Total', input.totalFormatted],
          ['Due date', checkedDate(input.dueDate)],
        ],
      },
    ],
    attachments: [
      { filename: invoiceFilename(input.number), contentType: 'application/pdf', content: input.pdf },
    ],
  });
}

/**
 * `invoice-<number>.pdf`, with anything but letters, digits, dot, dash and underscore
 * replaced: numbers such as `2026/014` would otherwise read as a path.
 */
export function invoiceFilename(number: string): string {
  return `invoice-${number.replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf`;
}
