import { Type } from 'typebox';
import { Limit } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Cursor, CursorPage, cursorPage, decodeCursor } from '../pagination.ts';
import { InboxItem, InboxSort, InboxStateSchema } from './schema.ts';
import { decodeSortedCursor, encodeSortedCursor, orderInbox, searchInbox, toInboxItem } from './store.ts';

export const listInbox = defineOperation({
  name: 'inbox.list',
  summary: 'List inbox items (received receipts), newest first',
  description:
    'Cursor pages (`limit` and `cursor` in; `items` and `nextCursor` out, null at the end), keyset in the order `sort` names, so items arriving between pages are never skipped or repeated. `state` narrows; `search` matches the merchant, the file name or a total as printed (`11,90`, `1.234,56`).',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      cursor: Type.Optional(Cursor),
      state: Type.Optional(InboxStateSchema),
      search: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Merchant, file name or a total as printed (any case).',
        }),
      ),
      sort: Type.Optional(InboxSort),
    },
    { additionalProperties: false },
  ),
  output: CursorPage(
    InboxItem,
    'The page of inbox items in the order `sort` names (newest arrival first by default).',
  ),
  example: { limit: 30 },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    let query = ctx.db.selectFrom('receipts').selectAll().where('organization_id', '=', ctx.organizationId);
    if (input.state) query = query.where('state', '=', input.state);
    if (input.search) query = searchInbox(query, input.search);
    const sort = input.sort ?? 'received_desc';
    if (sort !== 'received_desc') {
      // Other orders carry their sort value in the cursor (decision 486).
      const after = input.cursor === undefined ? undefined : decodeSortedCursor(input.cursor, sort);
      const rows = await orderInbox(query, sort, after)
        .limit(limit + 1)
        .execute();
      const items = rows.slice(0, limit).map(toInboxItem);
      const last = items.at(-1);
      return { items, nextCursor: rows.length > limit && last ? encodeSortedCursor(last, sort) : null };
    }
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
