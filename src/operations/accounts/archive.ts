import { Type } from 'typebox';
import { AppError, revisionConflict } from '../../contract/errors.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Account } from './schema.ts';
import { requireAccount, toAccount, updateAccountRow } from './store.ts';

export const archiveAccount = defineOperation({
  name: 'accounts.archive',
  summary: 'Archive a money account',
  description:
    'An archived account keeps its transactions and entries but takes no new transactions or imports; its cards are archived with it.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required', destructive: true },
  input: Type.Object(
    {
      id: Id('Account id.'),
      expectedRevision: Revision(),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Account,
  example: { id: '00000000-0000-0000-0000-000000000000', expectedRevision: 1 },
  async run({ ctx, input }) {
    const current = await requireAccount(ctx.db, ctx.organizationId, input.id);
    if (current.revision !== input.expectedRevision) throw revisionConflict(current.revision);
    if (current.archived_at !== null) {
      throw new AppError('invalid_state', 'The account is already archived.', {
        details: { state: 'archived' },
      });
    }
    const now = ctx.clock.now().toISOString();
    const updated = await updateAccountRow(ctx.db, current, { archived_at: now }, now);
    await ctx.db
      .updateTable('books_cards')
      .set((eb) => ({ archived_at: now, updated_at: now, revision: eb('revision', '+', 1) }))
      .where('organization_id', '=', ctx.organizationId)
      .where('account_id', '=', current.id)
      .where('archived_at', 'is', null)
      .execute();
    await ctx.audit({
      recordType: 'account',
      recordId: current.id,
      beforeRevision: current.revision,
      afterRevision: updated.revision,
    });
    const account = toAccount(updated);
    await ctx.emit({
      type: 'account.archived',
      subject: { type: 'account', id: current.id },
      data: { name: account.name, kind: account.kind, currency: account.currency },
    });
    return account;
  },
});
