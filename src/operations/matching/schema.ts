import { type Static, Type } from 'typebox';
import { RevisionField } from '../../books/wire.ts';
import { Id, IdempotencyKey, Revision, Timestamp } from '../../contract/formats.ts';

const Component = (description: string) =>
  Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
    description: `${description} 0-1, or null when one side lacks the field.`,
  });

/** A suggested receipt/transaction pair with its score and why. */
export const MatchSuggestion = Type.Object(
  {
    id: Id('Suggestion id.'),
    receipt_id: Id('The receipt (inbox item).'),
    transaction_id: Id('The bank or card transaction.'),
    score: Type.Number({ minimum: 0, maximum: 1, description: 'Overall score, 0-1 (docs/receipts.md).' }),
    components: Type.Object(
      {
        amount: Component('Amount agreement (FX and tips tolerated).'),
        date: Component('Booking date after the receipt date.'),
        merchant: Component('Merchant against the bank descriptor, learned aliases included.'),
        currency: Component('Same currency.'),
        card: Component('Card last four.'),
        order: Component('Order number in the descriptor.'),
      },
      { additionalProperties: false, description: 'The evidence, each 0-1 or null.' },
    ),
    reasons: Type.Array(Type.String(), { description: 'Short explanations, strongest first.' }),
    exact_amount: Type.Boolean({ description: 'Amounts agree to the minor unit in one currency.' }),
    same_card: Type.Boolean({ description: 'Both name a card and the last four digits agree.' }),
    state: Type.Union([Type.Literal('open'), Type.Literal('confirmed'), Type.Literal('declined')], {
      description: 'open, confirmed (attached) or declined (never suggested again).',
    }),
    revision: RevisionField,
    created_at: Timestamp('When it was first suggested.'),
    updated_at: Timestamp('Last change.'),
  },
  { title: 'MatchSuggestion', additionalProperties: false },
);
export type MatchSuggestion = Static<typeof MatchSuggestion>;

export const MatchResult = Type.Object(
  {
    receipt_id: Id('The receipt.'),
    transaction_id: Id('The transaction, now matched.'),
    entry_id: Id('The transaction’s entry the receipt is attached to.'),
    receipt_revision: Type.Integer({ minimum: 1, description: 'The receipt’s revision after the change.' }),
    transaction_revision: Type.Integer({
      minimum: 1,
      description: 'The transaction’s revision after the change.',
    }),
  },
  { title: 'MatchResult', additionalProperties: false },
);

/** What confirm, decline and reopen take: the suggestion and the revision the caller last read. */
export const SuggestionDecision = Type.Object(
  {
    id: Id('Suggestion id.'),
    expectedRevision: Revision('The revision of the suggestion last read.'),
    idempotencyKey: Type.Optional(IdempotencyKey(200)),
  },
  { additionalProperties: false },
);
