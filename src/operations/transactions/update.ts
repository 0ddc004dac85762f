import { Type } from 'typebox';
import { notFound, revisionConflict } from '../../contract/errors.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Transaction } from './schema.ts';
import { requireTransaction, toTransaction, transactionEventData } from './store.ts';

export const updateTransaction = defineOperation({
  name: 'transactions.update',
  summary: 'Annotate a transaction (note, category hint, card, excluded)',
  description:
    'The amount, dates, description and bank reference never change: they are what the bank (or the person who recorded it) said. `excluded: true` takes the transaction out of reconciliation and attention.mine (a transfer between own accounts, a private payment); `false` puts it back.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Transaction id.'),
      expectedRevision: Revision(),
      note: Type.Optional(
        Type.Union([Type.String({ minLength: 1, maxLength: 1000 }), Type.Null()], {
          description: 'A note, 1-1000 characters; null clears it.',
        }),
      ),
      categoryHint: Type.Optional(
        Type.Union([Type.String({ minLength: 1, maxLength: 20 }), Type.Null()], {
          description: 'A category code suggested for its entry; null clears it.',
        }),
      ),
      cardId: Type.Optional(
        Type.Union([Id('A card of the same account.'), Type.Null()], {
          description: 'The card used (a card of the same account); null when no card was used.',
        }),
      ),
      excluded: Type.Optional(
        Type.Boolean({ description: 'true excludes it from reconciliation; false brings it back.' }),
      ),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Transaction,
  example: { id: '00000000-0000-0000-0000-000000000000', expectedRevision: 1, excluded: true },
  async run({ ctx, input }) {
    const current = await requireTransaction(ctx.db, ctx.organizationId, input.id);
    if (current.revision !== input.expectedRevision) throw revisionConflict(current.revision);
    if (input.cardId) {
      const card = await ctx.db
        .selectFrom('books_cards')
        .select('id')
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', input.cardId)
        .where('account_id', '=', current.account_id)
        .executeTakeFirst();
      if (!card) throw notFound('Card', 'cardId');
    }
    const status =
      input.excluded === undefined
        ? current.status
        : input.excluded
          ? 'excluded'
          : current.receipt_id
            ? 'matched'
            : 'unmatched';
    const now = ctx.clock.now().toISOString();
    const result = await ctx.db
      .updateTable('bank_transactions')
      .set({
        ...(input.note !== undefined ? { note: input.note } : {}),
        ...(input.categoryHint !== undefined ? { category_hint: input.categoryHint } : {}),
        ...(input.cardId !== undefined ? { card_id: input.cardId } : {}),
        status,
        revision: current.revision + 1,
        updated_at: now,
      })
      .where('id', '=', current.id)
      .where('organization_id', '=', ctx.organizationId)
      .where('revision', '=', current.revision)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) {
      throw revisionConflict((await requireTransaction(ctx.db, ctx.organizationId, input.id)).revision);
    }
    await ctx.audit({
      recordType: 'transaction',
      recordId: current.id,
      beforeRevision: current.revision,
      afterRevision: current.revision + 1,
    });
    const transaction = toTransaction(await requireTransaction(ctx.db, ctx.organizationId, input.id));
    await ctx.emit({
      type: 'transaction.updated',
      subject: { type: 'transaction', id: transaction.id },
      data: transactionEventData(transaction),
    });
    return transaction;
  },
});
