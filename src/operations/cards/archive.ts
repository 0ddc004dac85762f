import { Type } from 'typebox';
import { AppError, revisionConflict } from '../../contract/errors.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Card } from './schema.ts';
import { cardEventData, requireCard, toCard, updateCardRow } from './store.ts';

export const archiveCard = defineOperation({
  name: 'cards.archive',
  summary: 'Archive a payment card',
  description:
    'The card keeps its transactions (and they stay in the holder’s attention.mine until they have a receipt or are excluded); new statement lines are no longer attributed to it.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required', destructive: true },
  input: Type.Object(
    { id: Id('Card id.'), expectedRevision: Revision(), idempotencyKey: Type.Optional(IdempotencyKey(200)) },
    { additionalProperties: false },
  ),
  output: Card,
  example: { id: '00000000-0000-0000-0000-000000000000', expectedRevision: 1 },
  async run({ ctx, input }) {
    const current = await requireCard(ctx.db, ctx.organizationId, input.id);
    if (current.revision !== input.expectedRevision) throw revisionConflict(current.revision);
    if (current.archived_at !== null) {
      throw new AppError('invalid_state', 'The card is already archived.', {
        details: { state: 'archived' },
      });
    }
    const now = ctx.clock.now().toISOString();
    const updated = await updateCardRow(ctx.db, current, { archived_at: now }, now);
    await ctx.audit({
      recordType: 'card',
      recordId: current.id,
      beforeRevision: current.revision,
      afterRevision: updated.revision,
    });
    const card = toCard(updated);
    await ctx.emit({
      type: 'card.archived',
      subject: { type: 'card', id: card.id },
      data: cardEventData(card),
    });
    return card;
  },
});
