import { Type } from 'typebox';
import { CurrencyCode, DateString, IdempotencyKey, SignedMinor } from '../../contract/formats.ts';
import { isSupportedCurrency } from '../../invoicing/money.ts';
import { newId } from '../../lib/ids.ts';
import { defineOperation } from '../define.ts';
import { unsupportedCurrency } from '../parties/schema.ts';
import { Account, AccountKind, AccountName, AccountRef } from './schema.ts';
import { toAccount } from './store.ts';

export const createAccount = defineOperation({
  name: 'accounts.create',
  summary: 'Create a money account (bank, card, cash or payment provider)',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none' },
  input: Type.Object(
    {
      name: AccountName,
      kind: AccountKind,
      currency: CurrencyCode('Currency of the account; fixed once created.'),
      accountRef: Type.Optional(AccountRef),
      openingBalanceMinor: Type.Optional(SignedMinor('Balance on the opening date; 0 when omitted.')),
      openingDate: Type.Optional(DateString('Date of the opening balance.')),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Account,
  example: { name: 'Business checking', kind: 'checking', currency: 'CAD', accountRef: '4821' },
  async run({ ctx, input }) {
    if (!isSupportedCurrency(input.currency)) throw unsupportedCurrency('currency', input.currency);
    const now = ctx.clock.now().toISOString();
    const row = {
      id: newId(),
      organization_id: ctx.organizationId,
      name: input.name,
      kind: input.kind,
      currency: input.currency,
      account_ref: input.accountRef ?? null,
      opening_balance_minor: input.openingBalanceMinor ?? '0',
      opening_date: input.openingDate ?? null,
      archived_at: null,
      revision: 1,
      created_at: now,
      updated_at: now,
    };
    await ctx.db.insertInto('books_accounts').values(row).execute();
    await ctx.audit({ recordType: 'account', recordId: row.id, beforeRevision: null, afterRevision: 1 });
    const account = toAccount(row);
    await ctx.emit({
      type: 'account.created',
      subject: { type: 'account', id: row.id },
      data: { name: account.name, kind: account.kind, currency: account.currency },
    });
    return account;
  },
});
