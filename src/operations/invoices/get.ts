import { Type } from 'typebox';
import { notFound } from '../../contract/errors.ts';
import { Id } from '../../contract/formats.ts';
import { loadInvoice, organizationToday } from '../../invoicing/invoices/index.ts';
import { defineOperation } from '../define.ts';
import { Invoice, toInvoiceRecord } from './schema.ts';

export const getInvoice = defineOperation({
  name: 'invoices.get',
  summary: 'Get an invoice with its lines and payments',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Invoice id.') }, { additionalProperties: false }),
  output: Invoice,
  example: { id: '00000000-0000-0000-0000-000000000000' },
  async run({ ctx, input }) {
    const invoice = await loadInvoice(ctx.db, ctx.organizationId, input.id);
    if (!invoice) throw notFound('Invoice', 'id');
    return toInvoiceRecord(invoice, await organizationToday(ctx.db, ctx.organizationId, ctx.clock));
  },
});
