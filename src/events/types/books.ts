import { Type } from 'typebox';
import type { EventDefinition } from '../definition.ts';

const Str = (description: string) => Type.String({ description });
const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const Signed = (description: string) =>
  Type.String({ pattern: '^(0|-?[1-9][0-9]*)$', description: `${description} Signed minor units.` });
const Count = (description: string) => Type.Integer({ minimum: 0, description });

const AccountData = Type.Object(
  {
    name: Str('Account name.'),
    kind: Str('checking, savings, credit_card, cash or payment_provider.'),
    currency: Str('ISO 4217 code.'),
  },
  { additionalProperties: false },
);

const CardData = Type.Object(
  {
    accountId: Str('ID of the account the card pays from.'),
    holderMemberId: Str('ID of the member who holds the card.'),
    lastFour: Str('Last four digits of the card.'),
    brand: NullableString('Card brand, or null.'),
    label: NullableString('Label, or null.'),
  },
  { additionalProperties: false },
);

const TransactionData = Type.Object(
  {
    accountId: Str('ID of the account.'),
    cardId: NullableString('ID of the card used, or null.'),
    bookedDate: Type.String({ format: 'date', description: 'Booked date.' }),
    amountMinor: Signed('Amount; negative is money out.'),
    currency: Str('ISO 4217 code.'),
    merchant: Str('Cleaned merchant name.'),
    status: Str('unmatched, matched or excluded.'),
  },
  { additionalProperties: false },
);

const importFields = {
  accountId: Str('ID of the account imported into.'),
  read: Count('Lines read.'),
  added: Count('Transactions added (0 when the import failed).'),
  duplicates: Count('Lines already in the account.'),
  rejected: Count('Lines rejected (see transactions.imports.get for reasons).'),
  pending: Count('Lines not booked yet by the bank; not imported.'),
};

const EntryData = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'Date of the entry.' }),
    amountMinor: Signed('Amount of the entry.'),
    currency: Str('ISO 4217 code.'),
    reviewStatus: Str('unreviewed or reviewed.'),
    categoryCodes: Type.Array(Type.String(), { description: 'Category code of each allocation, in order.' }),
  },
  { additionalProperties: false },
);

/** The books: accounts, cards, transactions, imports, the chart and ledger entries. */
export const booksEvents: readonly EventDefinition[] = [
  {
    type: 'account.created',
    subjectType: 'account',
    description: 'A money account was added (accounts.create).',
    data: AccountData,
  },
  {
    type: 'account.updated',
    subjectType: 'account',
    description: 'A money account changed (accounts.update); data is the account after the change.',
    data: AccountData,
  },
  {
    type: 'account.archived',
    subjectType: 'account',
    description: 'A money account was archived with its cards (accounts.archive).',
    data: AccountData,
  },
  {
    type: 'card.created',
    subjectType: 'card',
    description: 'A payment card was added (cards.create).',
    data: CardData,
  },
  {
    type: 'card.updated',
    subjectType: 'card',
    description: 'A card changed, for example its holder (cards.update); data is the card after the change.',
    data: CardData,
  },
  {
    type: 'card.archived',
    subjectType: 'card',
    description: 'A card was archived (cards.archive).',
    data: CardData,
  },
  {
    type: 'transaction.created',
    subjectType: 'transaction',
    description:
      'A transaction was recorded by hand (transactions.create). Imported transactions are summed up by transactions.import.completed instead of one event each.',
    data: TransactionData,
  },
  {
    type: 'transaction.updated',
    subjectType: 'transaction',
    description:
      'A transaction was annotated or excluded (transactions.update); data is the transaction after the change.',
    data: TransactionData,
  },
  {
    type: 'transactions.import.completed',
    subjectType: 'statement_import',
    description: 'A statement import finished; the counts tell what it added.',
    data: Type.Object(importFields, { additionalProperties: false }),
  },
  {
    type: 'transactions.import.failed',
    subjectType: 'statement_import',
    description: 'A statement import failed on a file-level problem and added nothing.',
    data: Type.Object(
      {
        ...importFields,
        errorCode: Str(
          'Why: empty_file, unsupported_format, format_mismatch, malformed_file, unsafe_xml, unknown_columns, bad_encoding, line_too_long, time_limit, limit_exceeded, parse_memory_limit, parse_timeout, parse_output_too_large, parse_crashed (the sandboxed reader ran out of memory or time, answered too much, or stopped), internal_error.',
        ),
        errorMessage: Str('A readable explanation.'),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'entry.updated',
    subjectType: 'entry',
    description: 'The allocations of a ledger entry were replaced (entries.update).',
    data: EntryData,
  },
  {
    type: 'entry.reviewed',
    subjectType: 'entry',
    description: 'A ledger entry was marked reviewed (entries.update).',
    data: EntryData,
  },
  {
    type: 'category.saved',
    subjectType: 'category',
    description:
      'A category of the chart was added or changed (categories.save); data is the category after the change.',
    data: Type.Object(
      {
        code: Str('Code in the chart.'),
        name: Str('Name.'),
        kind: Str('income, expense, asset, liability or equity.'),
        defaultTaxRate: NullableString('Suggested tax rate (percent), or null.'),
        active: Type.Boolean({ description: 'false once deactivated.' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'entries.export.completed',
    subjectType: 'entries_export',
    description: 'An entries export finished; download it with entries.exports.download.',
    data: Type.Object(
      {
        from: Type.String({ format: 'date', description: 'First date included.' }),
        to: Type.String({ format: 'date', description: 'Last date included.' }),
        entries: Count('Entries written.'),
      },
      { additionalProperties: false },
    ),
  },
];
