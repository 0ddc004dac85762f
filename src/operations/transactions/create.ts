import { Type } from 'typebox';
import { insertTransactions } from '../../books/transactions.ts';
import { AppError, notFound } from '../../contract/errors.ts';
import {
  CurrencyCode,
  DateString,
  Id,
  IdempotencyKey,
  RequiredText,
  SignedMinor,
} from '../../contract/formats.ts';
import { isSupportedCurrency } from '../../invoicing/money.ts';
import { requireAccount } from '../accounts/store.ts';
import { defineOperation } from '../define.ts';
import { unsupportedCurrency } from '../parties/schema.ts';
import { Transaction } from './schema.ts';
import { requireTransaction, toTransaction, transactionEventData } from './store.ts';

export const createTransaction = defineOperation({
  name: 'transactions.create',
  summary: 'Record a transaction by hand (cash, a missing line)',
  description:
    'Adds a transaction in the account’s currency and posts its ledger entry (unreviewed, uncategorized). Statement imports that later bring the same line find it as a duplicate (same amount, date and description).',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none' },
  input: Type.Object(
    {
      accountId: Id('The money account.'),
      cardId: Type.Optional(Id('The card used (a card of the account).')),
      bookedDate: DateString('Date of the transaction.'),
      valueDate: Type.Optional(DateString('Value date, if different.')),
      amountMinor: SignedMinor('Amount; negative is money out.'),
      originalAmountMinor: Type.Optional(
        SignedMinor('Amount before conversion, when paid in another currency.'),
      ),
      originalCurrency: Type.Optional(CurrencyCode('Currency before conversion.')),
      description: RequiredText(1, 500, 'What it was, 1-500 characters, not blank.'),
      counterpartyName: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: 'Who was paid or paid, 1-200 characters.' }),
      ),
      counterpartyIban: Type.Optional(
        Type.String({ minLength: 1, maxLength: 50, description: 'Their IBAN or account, 1-50 characters.' }),
      ),
      note: Type.Optional(
        Type.String({ minLength: 1, maxLength: 1000, description: 'A note, 1-1000 characters.' }),
      ),
      categoryHint: Type.Optional(
        Type.String({ minLength: 1, maxLength: 20, description: 'A category code suggested for its entry.' }),
      ),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Transaction,
  example: {
    accountId: '00000000-0000-0000-0000-000000000000',
    bookedDate: '2026-01-15',
    amountMinor: '-1250',
    description: 'Parking meter',
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
    if ((input.originalAmountMinor === undefined) !== (input.originalCurrency === undefined)) {
      throw new AppError('invalid_input', 'originalAmountMinor and originalCurrency go together.', {
        field: input.originalAmountMinor === undefined ? 'originalAmountMinor' : 'originalCurrency',
      });
    }
    if (input.originalCurrency !== undefined && !isSupportedCurrency(input.originalCurrency)) {
      throw unsupportedCurrency('originalCurrency', input.originalCurrency);
    }
    const now = ctx.clock.now().toISOString();
    const [id] = await insertTransactions(
      ctx.db,
      ctx.organizationId,
      [
        {
          accountId: account.id,
          cardId: input.cardId ?? null,
          bookedDate: input.bookedDate,
          valueDate: input.valueDate ?? null,
          amountMinor: BigInt(input.amountMinor),
          currency: account.currency,
          originalAmountMinor:
            input.originalAmountMinor === undefined ? null : BigInt(input.originalAmountMinor),
          originalCurrency: input.originalCurrency ?? null,
          feesMinor: null,
          description: input.description.replace(/\s+/g, ' ').trim(),
          counterpartyName: input.counterpartyName ?? null,
          counterpartyIban: input.counterpartyIban ?? null,
          bankReference: null,
          note: input.note ?? null,
          categoryHint: input.categoryHint ?? null,
          source: 'manual',
          importId: null,
          lineNumber: null,
        },
      ],
      now,
    );
    const row = await requireTransaction(ctx.db, ctx.organizationId, id ?? '');
    await ctx.audit({ recordType: 'transaction', recordId: row.id, beforeRevision: null, afterRevision: 1 });
    const transaction = toTransaction(row);
    await ctx.emit({
      type: 'transaction.created',
      subject: { type: 'transaction', id: row.id },
      data: transactionEventData(transaction),
    });
    return transaction;
  },
});
