import { Type } from 'typebox';
import { Limit } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Cursor, CursorPage, cursorPage, decodeCursor } from '../pagination.ts';
import { InboxItem, InboxStateSchema } from './schema.ts';
import { toInboxItem } from './store.ts';

export const listInbox = defineOperation({
  name: 'inbox.list',
  summary: 'List inbox items (received receipts), newest first',
  description:
    'Cursor pages as the contract gives them: `limit` and `cursor` in, `items` and `nextCursor` out (null at the end). Items that arrive between pages sort before the cursor, so a walk never skips or repeats one. `state` narrows the list.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      cursor: Type.Optional(Cursor),
      state: Type.Optional(InboxStateSchema),
    },
    { additionalProperties: false },
  ),
  output: CursorPage(InboxItem, 'The page of inbox items, newest first (then by id).'),
  example: { limit: 30 },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    let query = ctx.db.selectFrom('receipts').selectAll().where('organization_id', '=', ctx.organizationId);
    if (input.state) query = query.where('state', '=', input.state);
    if (input.cursor !== undefined) {
      const { createdAt, id } = decodeCursor(input.cursor);
      // A row comparison, so the (organization_id, created_at, id) index seeks to the position.
      query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(createdAt, id)));
    }
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    return cursorPage(
      rows.map((row) => ({ ...row, created_at: toInboxItem(row).created_at })),
      limit,
      toInboxItem,
    );
  },
});
