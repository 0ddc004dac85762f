import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { organizationToday, updateDraftInvoice } from '../../invoicing/invoices/index.ts';
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

export const updateInvoice = defineOperation({
  name: 'invoices.update',
  summary: 'Change a draft invoice',
  description:
    'Drafts only. Absent fields keep their value; `lines` replaces every line; null clears scheduledSendDate or notes. With payment terms, changing the issue date moves the due date.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Invoice id.'),
      expectedRevision: Revision(),
      partyId: Type.Optional(Id('The party invoiced.')),
      currency: Type.Optional(Currency),
      lines: Type.Optional(Lines),
      issueDate: Type.Optional(IssueDate),
      dueDate: Type.Optional(DueDate),
      paymentTermsDays: Type.Optional(PaymentTermsDays),
      scheduledSendDate: Type.Optional(
        Type.Union([ScheduledSendDate, Type.Null()], {
          description: 'Automatic send day; null unschedules.',
        }),
      ),
      notes: Type.Optional(Type.Union([Notes, Type.Null()], { description: 'Notes; null clears them.' })),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Invoice,
  example: { id: '00000000-0000-0000-0000-000000000000', expectedRevision: 1, notes: 'PO 4711' },
  async run({ ctx, input }) {
    const { id, expectedRevision, idempotencyKey: _key, ...patch } = input;
    const invoice = await updateDraftInvoice(ctx, id, expectedRevision, patch);
    return toInvoiceRecord(invoice, await organizationToday(ctx.db, ctx.organizationId, ctx.clock));
  },
});
