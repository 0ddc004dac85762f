import { type Static, Type } from 'typebox';
import { NullableString, RevisionField } from '../../books/wire.ts';
import { Id, Timestamp } from '../../contract/formats.ts';

/** A payment card on a money account, held by one member of the organization. */
export const Card = Type.Object(
  {
    id: Id('Card id.'),
    account_id: Id('The account the card pays from.'),
    holder_member_id: Id('The member who holds the card (their attention.mine lists its transactions).'),
    last_four: Type.String({ description: 'Last four digits of the card number.' }),
    brand: NullableString('Card brand as written (Visa, Mastercard, Amex...), or null.'),
    label: NullableString('A label shown in lists, or null.'),
    archived_at: Type.Union([Timestamp('When archived.'), Type.Null()], {
      description: 'When the card was archived (no new transactions are attributed to it), or null.',
    }),
    revision: RevisionField,
    created_at: Timestamp('When the card was created (ISO 8601, UTC).'),
    updated_at: Timestamp('Last change (ISO 8601, UTC).'),
  },
  { title: 'Card', additionalProperties: false },
);
export type Card = Static<typeof Card>;

export const LastFour = Type.String({
  pattern: '^[0-9]{4}$',
  description: 'Last four digits of the card number.',
});
export const CardBrand = Type.String({
  minLength: 1,
  maxLength: 50,
  description: 'Card brand, 1-50 characters.',
});
export const CardLabel = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'Label, 1-100 characters.',
});
