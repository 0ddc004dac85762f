import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { organizationToday, voidInvoice } from '../../invoicing/invoices/index.ts';
import { defineOperation } from '../define.ts';
import { Invoice, toInvoiceRecord } from './schema.ts';

export const voidInvoiceOperation = defineOperation({
  name: 'invoices.void',
  summary: 'Void an invoice',
  description:
    'Destructive and final. Drafts and sent invoices without payments can be voided; a sent invoice keeps its number. Paid invoices, or invoices with payments, need a refund or credit note instead.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required', destructive: true },
  input: Type.Object(
    {
      id: Id('Invoice id.'),
      expectedRevision: Revision(),
      reason: Type.Optional(
        Type.String({ minLength: 1, maxLength: 500, description: 'Why, 1-500 characters.' }),
      ),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Invoice,
  example: { id: '00000000-0000-0000-0000-000000000000', expectedRevision: 2, reason: 'Issued twice' },
  async run({ ctx, input }) {
    const invoice = await voidInvoice(ctx, input.id, {
      expectedRevision: input.expectedRevision,
      reason: input.reason,
    });
    return toInvoiceRecord(invoice, await organizationToday(ctx.db, ctx.organizationId, ctx.clock));
  },
});
