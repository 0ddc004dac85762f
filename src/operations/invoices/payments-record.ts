import { Type } from 'typebox';
import { DateString, Id, IdempotencyKey, POSITIVE_MINOR_PATTERN, Revision } from '../../contract/formats.ts';
import { organizationToday, recordPayment } from '../../invoicing/invoices/index.ts';
import { defineOperation } from '../define.ts';
import { Invoice, PaymentMethod, PaymentRecord, toInvoiceRecord, toPaymentRecord } from './schema.ts';

export const recordInvoicePayment = defineOperation({
  name: 'invoices.payments.record',
  summary: 'Record a payment on a sent invoice',
  description:
    'A partial payment lowers the balance; the payment that brings it to exactly 0 makes the invoice paid and emits invoice.paid. A payment above the balance is refused (payment_exceeds_balance).',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      invoiceId: Id('Invoice id.'),
      expectedRevision: Revision("The invoice's revision the caller last read."),
      amountMinor: Type.String({
        pattern: POSITIVE_MINOR_PATTERN,
        description: 'Amount in minor units, decimal string greater than 0, at most the balance.',
      }),
      paidOn: DateString(
        "Day the money arrived (YYYY-MM-DD): not after the organization's today, at most 365 days before the issue date.",
      ),
      method: PaymentMethod,
      reference: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Bank reference, cheque number..., 1-200 characters.',
        }),
      ),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ invoice: Invoice, payment: PaymentRecord }, { additionalProperties: false }),
  example: {
    invoiceId: '00000000-0000-0000-0000-000000000000',
    expectedRevision: 2,
    amountMinor: '50000',
    paidOn: '2026-04-10',
    method: 'bank_transfer',
    reference: 'WIRE 8812',
  },
  async run({ ctx, input }) {
    const result = await recordPayment(ctx, input.invoiceId, {
      amountMinor: BigInt(input.amountMinor),
      paidOn: input.paidOn,
      method: input.method,
      reference: input.reference,
      expectedRevision: input.expectedRevision,
    });
    const today = await organizationToday(ctx.db, ctx.organizationId, ctx.clock);
    return { invoice: toInvoiceRecord(result.invoice, today), payment: toPaymentRecord(result.payment) };
  },
});
