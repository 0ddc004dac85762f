import { Type } from 'typebox';
import { AppError } from '../../contract/errors.ts';
import { Id, IdempotencyKey } from '../../contract/formats.ts';
import { newId } from '../../lib/ids.ts';
import { requireAccount } from '../accounts/store.ts';
import { defineOperation } from '../define.ts';
import { Card, CardBrand, CardLabel, LastFour } from './schema.ts';
import { assertHolder, cardEventData, toCard } from './store.ts';

export const createCard = defineOperation({
  name: 'cards.create',
  summary: 'Add a payment card to an account',
  description:
    'The holder is a member of the organization; statement lines naming the last four digits are attributed to the card, and its transactions appear in the holder’s attention.mine.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none' },
  input: Type.Object(
    {
      accountId: Id('The account the card pays from.'),
      holderMemberId: Id('The member who holds the card.'),
      lastFour: LastFour,
      brand: Type.Optional(CardBrand),
      label: Type.Optional(CardLabel),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Card,
  example: {
    accountId: '00000000-0000-0000-0000-000000000000',
    holderMemberId: '00000000-0000-0000-0000-000000000000',
    lastFour: '4242',
    brand: 'Visa',
    label: 'Travel card',
  },
  async run({ ctx, input }) {
    const account = await requireAccount(ctx.db, ctx.organizationId, input.accountId, 'accountId');
    if (account.archived_at !== null) {
      throw new AppError('invalid_state', 'The account is archived.', { details: { state: 'archived' } });
    }
    await assertHolder(ctx.db, ctx.organizationId, input.holderMemberId);
    const now = ctx.clock.now().toISOString();
    const row = {
      id: newId(),
      organization_id: ctx.organizationId,
      account_id: account.id,
      holder_member_id: input.holderMemberId,
      last_four: input.lastFour,
      brand: input.brand ?? null,
      label: input.label ?? null,
      archived_at: null,
      revision: 1,
      created_at: now,
      updated_at: now,
    };
    await ctx.db.insertInto('books_cards').values(row).execute();
    await ctx.audit({ recordType: 'card', recordId: row.id, beforeRevision: null, afterRevision: 1 });
    const card = toCard(row);
    await ctx.emit({
      type: 'card.created',
      subject: { type: 'card', id: row.id },
      data: cardEventData(card),
    });
    return card;
  },
});
