import { Type } from 'typebox';
import { Id, IdempotencyKey } from '../../contract/formats.ts';
import { createDraftInvoice, organizationToday } from '../../invoicing/invoices/index.ts';
import { defineOperation } from '../define.ts';
import {
  Currency,
  DueDate,
  Invoice,
  IssueDate,
  Lines,
  Notes,
  PaymentTermsDays,
  ScheduledSendDate,
  toInvoiceRecord,
} from './schema.ts';

export const createInvoice = defineOperation({
  name: 'invoices.create',
  summary: 'Create a draft invoice',
  description:
    'The draft has no number until it is sent. Totals are computed by the server: per line, quantity x unit amount and then tax, each rounded half-even to a minor unit; invoice totals are exact sums of the lines.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none' },
  input: Type.Object(
    {
      partyId: Id('The party invoiced.'),
      currency: Currency,
      lines: Lines,
      issueDate: Type.Optional(IssueDate),
      dueDate: Type.Optional(DueDate),
      paymentTermsDays: Type.Optional(PaymentTermsDays),
      scheduledSendDate: Type.Optional(ScheduledSendDate),
      notes: Type.Optional(Notes),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Invoice,
  example: {
    partyId: '00000000-0000-0000-0000-000000000000',
    currency: 'CAD',
    lines: [{ description: 'Consulting, March', quantity: '12.5', unitAmountMinor: '15000', taxRate: '13' }],
    issueDate: '2026-03-31',
    paymentTermsDays: 30,
  },
  async run({ ctx, input }) {
    const invoice = await createDraftInvoice(ctx, {
      partyId: input.partyId,
      currency: input.currency,
      lines: input.lines,
      issueDate: input.issueDate,
      dueDate: input.dueDate,
      paymentTermsDays: input.paymentTermsDays,
      scheduledSendDate: input.scheduledSendDate,
      notes: input.notes,
    });
    return toInvoiceRecord(invoice, await organizationToday(ctx.db, ctx.organizationId, ctx.clock));
  },
});
