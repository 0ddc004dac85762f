import { Type } from 'typebox';
import { AppError, revisionConflict } from '../../contract/errors.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { InboxItem } from './schema.ts';
import { requireReceipt, toInboxItem, updateReceiptRow } from './store.ts';

export const restoreInboxItem = defineOperation({
  name: 'inbox.restore',
  summary: 'Bring an ignored inbox item back',
  description: 'An ignored item returns to the state it had when it was ignored.',
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
  example: { id: '00000000-0000-0000-0000-000000000000', expectedRevision: 2 },
  async run({ ctx, input }) {
    const current = await requireReceipt(ctx.db, ctx.organizationId, input.id);
    if (current.revision !== input.expectedRevision) throw revisionConflict(current.revision);
    if (current.state !== 'ignored') {
      throw new AppError(
        'invalid_state',
        `Only an ignored item can be restored; this one is ${current.state}.`,
        {
          details: { state: current.state },
        },
      );
    }
    const row = await updateReceiptRow(
      ctx.db,
      current,
      { state: current.state_before_ignore ?? 'new', state_before_ignore: null },
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
