import { type Static, Type } from 'typebox';
import { NullableDate, NullableString, RevisionField } from '../../books/wire.ts';
import { Id, SingleLineText, Timestamp } from '../../contract/formats.ts';

/** A money account as returned on the wire (snake_case like every record). */
export const Account = Type.Object(
  {
    id: Id('Account id.'),
    name: Type.String({ description: 'Name shown in lists, 1-200 characters.' }),
    kind: Type.Union(
      [
        Type.Literal('checking'),
        Type.Literal('savings'),
        Type.Literal('credit_card'),
        Type.Literal('cash'),
        Type.Literal('payment_provider'),
      ],
      { description: 'checking, savings, credit_card, cash or payment_provider.' },
    ),
    currency: Type.String({ description: 'Currency of the account (ISO 4217); never changes.' }),
    account_ref: NullableString('Last four digits of the account number, or the IBAN; null when not given.'),
    opening_balance_minor: Type.String({ description: 'Balance on the opening date, signed minor units.' }),
    opening_date: NullableDate('Date of the opening balance, or null.'),
    archived_at: Type.Union([Timestamp('When archived.'), Type.Null()], {
      description: 'When the account was archived (no new transactions or imports), or null.',
    }),
    revision: RevisionField,
    created_at: Timestamp('When the account was created (ISO 8601, UTC).'),
    updated_at: Timestamp('Last change (ISO 8601, UTC).'),
  },
  { title: 'Account', additionalProperties: false },
);
export type Account = Static<typeof Account>;

export const AccountName = SingleLineText(1, 200, 'Name, 1-200 characters on one line, not blank.');
export const AccountKind = Type.Union(
  [
    Type.Literal('checking'),
    Type.Literal('savings'),
    Type.Literal('credit_card'),
    Type.Literal('cash'),
    Type.Literal('payment_provider'),
  ],
  { description: 'Kind of account: checking, savings, credit_card, cash or payment_provider.' },
);
export const AccountRef = Type.String({
  pattern: '^([0-9]{4}|[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30})$',
  description: 'Last four digits of the account number, or the IBAN (uppercase, no spaces).',
});
