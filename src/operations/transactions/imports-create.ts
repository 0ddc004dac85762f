import { Type } from 'typebox';
import type { ImportParams } from '../../books/import-job.ts';
import { enqueueJob } from '../../books/jobs-queue.ts';
import { DATE_FORMATS } from '../../books/statements/dates.ts';
import { AppError, notFound } from '../../contract/errors.ts';
import { Id, IdempotencyKey, literalUnion } from '../../contract/formats.ts';
import { requireAccount } from '../accounts/store.ts';
import { defineOperation } from '../define.ts';
import { uploadedFile } from '../uploads.ts';
import { JobHandle } from './schema.ts';

/** Largest statement accepted, decoded. */
export const MAX_STATEMENT_BYTES = 20 * 1024 * 1024;

const Column = (description: string) =>
  Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Integer({ minimum: 0, maximum: 500 })], {
      description: `${description} A header cell as written in the file, or a 0-based column index.`,
    }),
  );

const ColumnMapping = Type.Object(
  {
    date: Type.Union(
      [Type.String({ minLength: 1, maxLength: 100 }), Type.Integer({ minimum: 0, maximum: 500 })],
      {
        description:
          'The booked date column. A header cell as written in the file, or a 0-based column index.',
      },
    ),
    amount: Column('One signed amount column (or give debit and credit).'),
    debit: Column('Money out, as positive amounts.'),
    credit: Column('Money in, as positive amounts.'),
    debitCreditMarker: Column(
      'A column marking each amount as money in or out (CR/DR, C/D, Credit/Debit, H/S); an empty marker is the kind the file leaves unmarked.',
    ),
    description: Type.Union(
      [Type.String({ minLength: 1, maxLength: 100 }), Type.Integer({ minimum: 0, maximum: 500 })],
      {
        description:
          'The description or merchant column. A header cell as written in the file, or a 0-based column index.',
      },
    ),
    valueDate: Column('Value date.'),
    reference: Column('The bank’s reference of the line (used first by the dedupe).'),
    counterpartyName: Column('Counterparty name.'),
    counterpartyIban: Column('Counterparty IBAN.'),
    currency: Column('Currency of the line.'),
    status: Column('A column whose value marks a row as pending (not booked yet).'),
    dateFormat: Type.Optional(
      literalUnion(DATE_FORMATS, {
        description: `Date format of the date columns, one of ${DATE_FORMATS.join(', ')}; detected when omitted.`,
      }),
    ),
    decimalSeparator: Type.Optional(
      Type.Union([Type.Literal(','), Type.Literal('.')], {
        description: 'Decimal separator; detected when omitted.',
      }),
    ),
    sign: Type.Optional(
      Type.Union([Type.Literal('as_is'), Type.Literal('invert')], {
        description: 'invert flips every sign (card exports that show purchases as positive amounts).',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'CSV/TSV only: which column holds what; recognised from the header when omitted.',
  },
);

/**
 * What the schema cannot say about a mapping, checked when the import is created rather than line
 * by line in the job: one signed amount column, or debit and credit, never both kinds.
 */
function checkMapping(mapping: { amount?: unknown; debit?: unknown; credit?: unknown } | undefined): void {
  if (mapping === undefined) return;
  const split = mapping.debit !== undefined ? 'debit' : mapping.credit !== undefined ? 'credit' : null;
  if (mapping.amount !== undefined && split !== null) {
    throw new AppError(
      'invalid_input',
      `mapping.${split} cannot be given with mapping.amount: map one signed amount column, or debit and credit.`,
      { field: `mapping.${split}` },
    );
  }
  if (mapping.amount === undefined && (mapping.debit === undefined || mapping.credit === undefined)) {
    throw new AppError('invalid_input', 'mapping needs an amount column, or both debit and credit columns.', {
      field:
        mapping.debit === undefined
          ? mapping.credit === undefined
            ? 'mapping.amount'
            : 'mapping.debit'
          : 'mapping.credit',
    });
  }
}

export const createImport = defineOperation({
  name: 'transactions.imports.create',
  summary: 'Import a bank or card statement (asynchronous)',
  description:
    'Queues the import of a statement file into an account and returns the job at once; poll transactions.imports.get. Formats: CSV/TSV, OFX/QFX, CAMT.053, MT940 and QIF, recognised from the content and checked against the file name. Lines already in the account are counted as duplicates, never added twice (docs/books.md). A file that cannot be read fails the job and adds nothing; bad lines are rejected one by one with their line number. At most 20 MiB decoded.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none' },
  // 20 MiB as base64 is 27 962 028 characters; 28 MiB leaves room for the other fields.
  uploadField: 'contentBase64',
  maxBodyBytes: 28 * 1024 * 1024,
  input: Type.Object(
    {
      accountId: Id('The account the statement belongs to.'),
      fileName: Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'File name as on disk, e.g. statement.csv.',
      }),
      mediaType: Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          'Media type as sent by the browser (text/csv, application/x-ofx, application/xml...); informative.',
      }),
      contentBase64: Type.String({
        minLength: 1,
        description: 'The file, base64 (RFC 4648, padded, no line breaks); at most 20 MiB decoded.',
      }),
      mapping: Type.Optional(ColumnMapping),
      cardId: Type.Optional(Id('A card of the account that made every line of the file that names no card.')),
      dedupeWindowDays: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 14,
          description:
            'Days between booked dates within which a line without bank reference matches an existing one (default 1).',
        }),
      ),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: JobHandle,
  example: {
    accountId: '00000000-0000-0000-0000-000000000000',
    fileName: 'statement.csv',
    mediaType: 'text/csv',
    contentBase64: Buffer.from('Date,Description,Amount\n2026-01-15,Coffee Shop,-4.50\n').toString('base64'),
  },
  async run({ ctx, input }) {
    const account = await requireAccount(ctx.db, ctx.organizationId, input.accountId, 'accountId');
    if (account.archived_at !== null) {
      throw new AppError('invalid_state', 'The account is archived.', {
        field: 'accountId',
        details: { state: 'archived' },
      });
    }
    if (input.cardId) {
      const card = await ctx.db
        .selectFrom('books_cards')
        .select('id')
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', input.cardId)
        .where('account_id', '=', account.id)
        .executeTakeFirst();
      if (!card) throw notFound('Card', 'cardId');
    }
    checkMapping(input.mapping);
    const bytes = uploadedFile(ctx.upload, input.contentBase64);
    if (bytes.length > MAX_STATEMENT_BYTES) {
      throw new AppError('payload_too_large', `The file exceeds ${MAX_STATEMENT_BYTES} bytes.`, {
        field: 'contentBase64',
      });
    }
    const params: ImportParams = {
      cardId: input.cardId ?? null,
      mapping: input.mapping ?? null,
      dedupeWindowDays: input.dedupeWindowDays ?? 1,
    };
    const job = await enqueueJob(ctx, {
      organizationId: ctx.organizationId,
      kind: 'statement_import',
      accountId: account.id,
      params: { ...params },
      fileName: input.fileName,
      mediaType: input.mediaType,
      fileBytes: bytes,
      createdBy: `member:${ctx.principal.memberId}`,
      now: ctx.clock.now().toISOString(),
    });
    await ctx.audit({
      recordType: 'statement_import',
      recordId: job.id,
      beforeRevision: null,
      afterRevision: null,
    });
    return { job };
  },
});
