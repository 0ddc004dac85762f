import { Type } from 'typebox';
import { revisionConflict } from '../../contract/errors.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Card, CardBrand, CardLabel } from './schema.ts';
import { assertHolder, cardEventData, requireCard, toCard, updateCardRow } from './store.ts';

export const updateCard = defineOperation({
  name: 'cards.update',
  summary: 'Change a payment card (holder, brand, label)',
  description:
    'The last four digits and the account never change: a new card is a new record. A new holder sees the card’s open transactions in attention.mine at once.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Card id.'),
      expectedRevision: Revision(),
      holderMemberId: Type.Optional(Id('The member who holds the card.')),
      brand: Type.Optional(
        Type.Union([CardBrand, Type.Null()], { description: 'Card brand; null clears it.' }),
      ),
      label: Type.Optional(Type.Union([CardLabel, Type.Null()], { description: 'Label; null clears it.' })),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Card,
  example: { id: '00000000-0000-0000-0000-000000000000', expectedRevision: 1, label: 'Office supplies' },
  async run({ ctx, input }) {
    const current = await requireCard(ctx.db, ctx.organizationId, input.id);
    if (current.revision !== input.expectedRevision) throw revisionConflict(current.revision);
    if (input.holderMemberId !== undefined)
      await assertHolder(ctx.db, ctx.organizationId, input.holderMemberId);
    const values = {
      ...(input.holderMemberId !== undefined ? { holder_member_id: input.holderMemberId } : {}),
      ...(input.brand !== undefined ? { brand: input.brand } : {}),
      ...(input.label !== undefined ? { label: input.label } : {}),
    };
    const updated = await updateCardRow(ctx.db, current, values, ctx.clock.now().toISOString());
    await ctx.audit({
      recordType: 'card',
      recordId: current.id,
      beforeRevision: current.revision,
      afterRevision: updated.revision,
    });
    const card = toCard(updated);
    await ctx.emit({
      type: 'card.updated',
      subject: { type: 'card', id: card.id },
      data: cardEventData(card),
    });
    return card;
  },
});
