import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { organizationToday, sendInvoice } from '../../invoicing/invoices/index.ts';
import { defineOperation } from '../define.ts';
import { Invoice, toInvoiceRecord } from './schema.ts';

export const sendInvoiceOperation = defineOperation({
  name: 'invoices.send',
  summary: 'Send a draft invoice',
  description:
    "Assigns the organization's next invoice number (gapless), moves the draft to sent (a zero total becomes paid at once), and emails the party the invoice PDF. The party needs an email address.",
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Invoice id.'),
      expectedRevision: Revision(),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Invoice,
  example: { id: '00000000-0000-0000-0000-000000000000', expectedRevision: 1 },
  async run({ ctx, input }) {
    const invoice = await sendInvoice(ctx, input.id, { expectedRevision: input.expectedRevision });
    return toInvoiceRecord(invoice, await organizationToday(ctx.db, ctx.organizationId, ctx.clock));
  },
});
