import { Type } from 'typebox';
import { AppError, revisionConflict } from '../../contract/errors.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { InboxItem } from './schema.ts';
import { requireReceipt, toInboxItem, updateReceiptRow } from './store.ts';

export const ignoreInboxItem = defineOperation({
  name: 'inbox.ignore',
  summary: 'Ignore an inbox item (not a receipt to match)',
  description:
    'Moves an item that is not matched to `ignored`: it leaves suggestions and auto-matching; inbox.restore brings it back to the state it had. A matched item is detached first (matching.detach).',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Inbox item id.'),
      expectedRevision: Revision(),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: InboxItem,
  example: { id: '00000000-0000-0000-0000-000000000000', expectedRevision: 1 },
  async run({ ctx, input }) {
    const current = await requireReceipt(ctx.db, ctx.organizationId, input.id);
    if (current.revision !== input.expectedRevision) throw revisionConflict(current.revision);
    if (current.state === 'ignored' || current.state === 'matched') {
      throw new AppError(
        'invalid_state',
        `An item in state ${current.state} cannot be ignored (allowed from new, processing, ready, needs_review, failed).`,
        { details: { state: current.state } },
      );
    }
    const row = await updateReceiptRow(
      ctx.db,
      current,
      { state: 'ignored', state_before_ignore: current.state },
      ctx.clock.now().toISOString(),
    );
    await ctx.audit({
      recordType: 'receipt',
      recordId: row.id,
      beforeRevision: current.revision,
      afterRevision: row.revision,
    });
    return toInboxItem(row);
  },
});
