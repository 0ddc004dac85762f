import { Type } from 'typebox';
import { AppError, notFound } from '../../contract/errors.ts';
import { Id } from '../../contract/formats.ts';
import {
  currentBillingSnapshot,
  loadInvoice,
  renderInvoiceDocument,
} from '../../invoicing/invoices/index.ts';
import { defineOperation } from '../define.ts';

export const invoicePdf = defineOperation({
  name: 'invoices.pdf',
  summary: 'Download the PDF of a sent invoice',
  description:
    'For invoices that have a number (sent, paid, or voided after sending); a draft answers 404. The document prints the party details frozen at sending and the current amount paid and balance. Over HTTP, `Accept: application/pdf` returns the PDF bytes (Content-Disposition: attachment) instead of the JSON form with base64 content.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Invoice id.') }, { additionalProperties: false }),
  output: Type.Object(
    {
      filename: Type.String({ description: '`invoice-<number>.pdf`.' }),
      media_type: Type.Literal('application/pdf', {
        description: 'Media type of the content: always application/pdf.',
      }),
      content_base64: Type.String({ description: 'The PDF, base64.' }),
    },
    { additionalProperties: false },
  ),
  example: { id: '00000000-0000-0000-0000-000000000000' },
  // `curl -H 'Accept: application/pdf' -o invoice.pdf` saves the document itself.
  file: {
    mediaTypes: ['application/pdf'],
    from: (output) => ({
      filename: output.filename,
      mediaType: output.media_type,
      bytes: Buffer.from(output.content_base64, 'base64'),
    }),
  },
  async run({ ctx, input }) {
    const invoice = await loadInvoice(ctx.db, ctx.organizationId, input.id);
    if (!invoice) throw notFound('Invoice', 'id');
    if (invoice.number === null) {
      // A read answers no 409: the document does not exist until the invoice is sent.
      throw new AppError('not_found', 'This invoice has no PDF until it is sent.', { field: 'id' });
    }
    const snapshot =
      invoice.billingSnapshot ?? (await currentBillingSnapshot(ctx.db, ctx.organizationId, invoice.partyId));
    const { filename, pdf } = await renderInvoiceDocument(invoice, snapshot);
    return { filename, media_type: 'application/pdf' as const, content_base64: pdf.toString('base64') };
  },
});
