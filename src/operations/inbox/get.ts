import { Type } from 'typebox';
import { Id } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { InboxItem } from './schema.ts';
import { requireReceipt, toInboxItem } from './store.ts';

export const getInboxItem = defineOperation({
  name: 'inbox.get',
  summary: 'Get one inbox item with its extracted fields',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Inbox item id.') }, { additionalProperties: false }),
  output: InboxItem,
  example: { id: '00000000-0000-0000-0000-000000000000' },
  async run({ ctx, input }) {
    return toInboxItem(await requireReceipt(ctx.db, ctx.organizationId, input.id));
  },
});
