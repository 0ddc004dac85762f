import { Type } from 'typebox';
import { mailItemFiles } from '../../company-mail/items.ts';
import { listMailItems } from '../../company-mail/list.ts';
import { Limit } from '../../contract/formats.ts';
import { asIso } from '../../db/values.ts';
import { defineOperation } from '../define.ts';
import { Cursor, CursorPage, cursorPage, decodeCursor } from '../pagination.ts';
import { MAIL_READ_ACCESS, MailChannel, MailItem, toMailItem } from './schema.ts';

export const listMailItemsOperation = defineOperation({
  name: 'mail.items.list',
  summary: "List the organization's letters, newest first",
  description:
    'A cursor list like inbox.list: `limit` and `cursor` in, `items` and `nextCursor` out; pages never skip or repeat a letter, whatever arrives meanwhile. Letters not archived unless `archived` is true. Listing is not a read of a letter: mail.items.get and mail.items.download are, and are recorded.',
  access: MAIL_READ_ACCESS,
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      cursor: Type.Optional(Cursor),
      archived: Type.Optional(
        Type.Boolean({ description: 'false (default): letters not archived; true: archived letters only.' }),
      ),
      unread: Type.Optional(
        Type.Boolean({ description: 'true: unread letters only; false: read letters only.' }),
      ),
      channel: Type.Optional(MailChannel),
    },
    { additionalProperties: false },
  ),
  output: CursorPage(MailItem, 'The page of letters, newest first.'),
  example: { limit: 30, unread: true },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const rows = await listMailItems(ctx.db, ctx.organizationId, {
      limit,
      after: input.cursor === undefined ? undefined : decodeCursor(input.cursor),
      archived: input.archived ?? false,
      unread: input.unread,
      channel: input.channel,
    });
    const files = await mailItemFiles(
      ctx.db,
      ctx.organizationId,
      rows.slice(0, limit).map((row) => row.id),
    );
    return cursorPage(
      rows.map((row) => ({ ...row, created_at: asIso(row.created_at) })),
      limit,
      (row) => toMailItem(row, files),
    );
  },
});
