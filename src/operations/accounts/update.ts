import { Type } from 'typebox';
import { revisionConflict } from '../../contract/errors.ts';
import { DateString, Id, IdempotencyKey, Revision, SignedMinor } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Account, AccountKind, AccountName, AccountRef } from './schema.ts';
import { requireAccount, toAccount, updateAccountRow } from './store.ts';

export const updateAccount = defineOperation({
  name: 'accounts.update',
  summary: 'Change a money account',
  description: 'Absent fields keep their value; null clears an optional one. The currency never changes.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Account id.'),
      expectedRevision: Revision(),
      name: Type.Optional(AccountName),
      kind: Type.Optional(AccountKind),
      accountRef: Type.Optional(
        Type.Union([AccountRef, Type.Null()], { description: 'Account number or IBAN; null clears it.' }),
      ),
      openingBalanceMinor: Type.Optional(SignedMinor('Balance on the opening date.')),
      openingDate: Type.Optional(
        Type.Union([DateString('Date of the opening balance.'), Type.Null()], {
          description: 'Date of the opening balance; null clears it.',
        }),
      ),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Account,
  example: { id: '00000000-0000-0000-0000-000000000000', expectedRevision: 1, name: 'Operating account' },
  async run({ ctx, input }) {
    const current = await requireAccount(ctx.db, ctx.organizationId, input.id);
    if (current.revision !== input.expectedRevision) throw revisionConflict(current.revision);
    const values = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.kind !== undefined ? { kind: input.kind } : {}),
      ...(input.accountRef !== undefined ? { account_ref: input.accountRef } : {}),
      ...(input.openingBalanceMinor !== undefined
        ? { opening_balance_minor: input.openingBalanceMinor }
        : {}),
      ...(input.openingDate !== undefined ? { opening_date: input.openingDate } : {}),
    };
    const updated = await updateAccountRow(ctx.db, current, values, ctx.clock.now().toISOString());
    await ctx.audit({
      recordType: 'account',
      recordId: current.id,
      beforeRevision: current.revision,
      afterRevision: updated.revision,
    });
    const account = toAccount(updated);
    await ctx.emit({
      type: 'account.updated',
      subject: { type: 'account', id: current.id },
      data: { name: account.name, kind: account.kind, currency: account.currency },
    });
    return account;
  },
});
