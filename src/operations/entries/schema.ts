import { type Static, Type } from 'typebox';
import { NullableString, RevisionField } from '../../books/wire.ts';
import { Id, Timestamp } from '../../contract/formats.ts';

export const REVIEW_STATUSES = ['unreviewed', 'reviewed'] as const;

export const EntryAllocation = Type.Object(
  {
    category_id: Id('Category of this line.'),
    category_code: Type.String({ description: 'Code of the category in the chart.' }),
    amount_minor: Type.String({
      description: 'Gross amount of the line (tax included), signed minor units.',
    }),
    tax_rate: Type.String({ description: 'Tax rate in percent, e.g. "13" or "8.875"; "0" when untaxed.' }),
    tax_minor: Type.String({ description: 'The tax inside amount_minor, signed minor units.' }),
  },
  { title: 'EntryAllocation', additionalProperties: false },
);

/** A ledger entry as returned on the wire. */
export const Entry = Type.Object(
  {
    id: Id('Entry id.'),
    date: Type.String({ format: 'date', description: 'Date of the entry.' }),
    description: Type.String({ description: 'What it was.' }),
    counterparty: NullableString('Who was paid or paid us, when known.'),
    amount_minor: Type.String({
      description: 'Amount, signed minor units (negative is money out); never changes.',
    }),
    currency: Type.String({ description: 'Currency of the amount.' }),
    allocations: Type.Array(EntryAllocation, {
      description: 'One or more lines; their amounts always sum to amount_minor.',
    }),
    review_status: Type.Union([Type.Literal('unreviewed'), Type.Literal('reviewed')], {
      description: 'unreviewed or reviewed.',
    }),
    source_type: Type.Union(
      [
        Type.Literal('transaction'),
        Type.Literal('invoice'),
        Type.Literal('invoice_payment'),
        Type.Literal('invoice_void'),
        Type.Literal('contractor_payout'),
        Type.Literal('receipt'),
      ],
      {
        description:
          'What posted the entry: a transaction, an invoice, an invoice payment, the void of an invoice, or a processed receipt (a receipt entry, waiting for its transaction).',
      },
    ),
    source_id: Id('The transaction, invoice, payment or receipt that posted it.'),
    transaction_ids: Type.Array(Id('Transaction id.'), { description: 'Transactions linked to the entry.' }),
    receipt_ids: Type.Array(Id('Receipt id.'), {
      description:
        'Receipts linked to the entry: its own receipt (a receipt entry), the receipt matched to its transaction, and receipts consolidated into it.',
    }),
    consolidations: Type.Array(
      Type.Object(
        {
          id: Id('Consolidation id (the audit log names it, record type receipt_consolidation).'),
          receipt_entry_id: Id('The receipt entry consolidated.'),
          target_entry_id: Id('The entry it was consolidated into.'),
          mode: Type.Union([Type.Literal('same_order'), Type.Literal('provider_card_settlement')], {
            description: 'Why the two belong together.',
          }),
          reason: Type.String({ description: 'The reason the reviewer gave.' }),
          confirmed_by: Type.String({
            description:
              'Who confirmed it, as the audit log names an actor: `member:<member id>` of the reviewer.',
          }),
          confirmed_at: Timestamp('When it was confirmed (ISO 8601, UTC).'),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Confirmed receipt consolidations this entry is part of (either side), oldest first: the record history of matching.receiptConsolidation.confirm.',
      },
    ),
    revision: RevisionField,
    created_at: Timestamp('When the entry was posted (ISO 8601, UTC).'),
    updated_at: Timestamp('Last change (ISO 8601, UTC).'),
  },
  { title: 'Entry', additionalProperties: false },
);
export type Entry = Static<typeof Entry>;
