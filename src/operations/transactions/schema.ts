import { type Static, Type } from 'typebox';
import { NullableDate, NullableString, RevisionField } from '../../books/wire.ts';
import { Id, literalUnion, Timestamp } from '../../contract/formats.ts';

const NullableId = (description: string) => Type.Union([Id(description), Type.Null()], { description });

/** A bank or card transaction as returned on the wire. */
export const Transaction = Type.Object(
  {
    id: Id('Transaction id.'),
    account_id: Id('The money account.'),
    card_id: NullableId('The card used, or null.'),
    booked_date: Type.String({ format: 'date', description: 'Date the bank booked it.' }),
    value_date: NullableDate('Value date, when the bank gives one.'),
    amount_minor: Type.String({ description: 'Signed minor units; negative is money out.' }),
    currency: Type.String({ description: 'Currency of the amount (the account’s).' }),
    original_amount_minor: NullableString(
      'Amount before conversion (card abroad, FX transfer), signed minor units.',
    ),
    original_currency: NullableString('Currency before conversion.'),
    fees_minor: NullableString('Bank charges attached to the line, signed minor units.'),
    description: Type.String({ description: 'Merchant or description exactly as the bank wrote it.' }),
    merchant: Type.String({ description: 'Cleaned merchant name.' }),
    counterparty_name: NullableString('Counterparty name, when the bank gives one.'),
    counterparty_iban: NullableString('Counterparty IBAN or account, when the bank gives one.'),
    bank_reference: NullableString('The bank’s own reference (FITID, AcctSvcrRef, MT940 reference...).'),
    status: Type.Union([Type.Literal('unmatched'), Type.Literal('matched'), Type.Literal('excluded')], {
      description: 'unmatched, matched (has a receipt) or excluded.',
    }),
    note: NullableString('A note of the organization.'),
    category_hint: NullableString('A category code suggested for its entry.'),
    source: Type.Union([Type.Literal('manual'), Type.Literal('import')], {
      description: 'manual (transactions.create) or import (a statement import).',
    }),
    import_id: NullableId('The import that added it, or null.'),
    entry_id: NullableId('The ledger entry it posted.'),
    receipt_id: NullableId('The receipt matched to it (receipts issue), or null.'),
    revision: RevisionField,
    created_at: Timestamp('When it was added (ISO 8601, UTC).'),
    updated_at: Timestamp('Last change (ISO 8601, UTC).'),
  },
  { title: 'Transaction', additionalProperties: false },
);
export type Transaction = Static<typeof Transaction>;

const Count = (description: string) => Type.Integer({ minimum: 0, description });

/** A statement import job as transactions.imports.get returns it. */
export const StatementImport = Type.Object(
  {
    id: Id('Import job id.'),
    state: Type.Union(
      [Type.Literal('queued'), Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed')],
      { description: 'queued, running, succeeded or failed.' },
    ),
    account_id: Id('The account imported into.'),
    card_id: NullableId('The card named for the whole file, or null.'),
    file_name: Type.String({ description: 'File name as sent.' }),
    media_type: Type.String({ description: 'Media type as sent.' }),
    file_size: Type.Integer({ description: 'Size of the file in bytes.' }),
    detection: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
      description:
        'What the parser detected and used (format, encoding, separator, date format, decimal separator, CSV mapping), once known.',
    }),
    counts: Type.Object(
      {
        read: Count('Lines read so far (every line: added, duplicate, rejected or pending); the progress.'),
        added: Count('Transactions added.'),
        duplicates: Count(
          'Lines already in the books (same bank reference, or amount, date and description).',
        ),
        rejected: Count('Lines that could not be read or do not belong to the account.'),
        pending: Count('Lines the bank has not booked yet; not imported.'),
      },
      { additionalProperties: false, description: 'Counts; they grow while the job runs.' },
    ),
    rejected: Type.Array(
      Type.Object(
        {
          line: Type.Integer({ description: 'Line (text formats) or entry number (XML formats), from 1.' }),
          reason: Type.String({ description: 'Why the line was rejected.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Rejected lines with their reasons (the first 1000).' },
    ),
    error: Type.Union(
      [
        Type.Object(
          {
            code: Type.String({
              description:
                'Why the file failed: empty_file, format_mismatch, malformed_file, unsafe_xml, ...',
            }),
            message: Type.String({ description: 'A readable explanation.' }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'Why the job failed (nothing was added), or null.' },
    ),
    created_at: Timestamp('When the import was requested.'),
    started_at: Type.Union([Timestamp('When a worker started it.'), Type.Null()], {
      description: 'When a worker last started it, or null.',
    }),
    finished_at: Type.Union([Timestamp('When it ended.'), Type.Null()], {
      description: 'When it ended, or null.',
    }),
  },
  { title: 'StatementImport', additionalProperties: false },
);
export type StatementImport = Static<typeof StatementImport>;

/** An import as transactions.imports.list returns it: the record without its rejected lines. */
export const StatementImportSummary = Type.Omit(StatementImport, ['rejected'], {
  title: 'StatementImportSummary',
  additionalProperties: false,
});

/** What asynchronous operations return at once: the job to poll. */
export const JobHandle = Type.Object(
  {
    job: Type.Object(
      {
        id: Id('Job id; poll the matching status operation with it.'),
        state: Type.Union(
          [
            Type.Literal('queued'),
            Type.Literal('running'),
            Type.Literal('succeeded'),
            Type.Literal('failed'),
          ],
          {
            description: 'Current state: queued at first.',
          },
        ),
      },
      { additionalProperties: false, description: 'The job and its current state.' },
    ),
  },
  { title: 'JobHandle', additionalProperties: false },
);

/** The orders transactions.list offers (the dashboard's sortable columns). */
export const TRANSACTION_SORTS = ['date_desc', 'date_asc', 'amount_desc', 'amount_asc'] as const;
export type TransactionSort = (typeof TRANSACTION_SORTS)[number];
export const TransactionSort = literalUnion(TRANSACTION_SORTS, {
  description:
    'Default date_desc. With amount_desc money in comes first, with amount_asc the largest charge. Ties by date, newest first, then id.',
});
