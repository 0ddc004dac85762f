import { Type } from 'typebox';
import { Id } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Entry } from './schema.ts';
import { loadEntry } from './store.ts';

export const getEntry = defineOperation({
  name: 'entries.get',
  summary: 'Get a ledger entry with its allocations',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Entry id.') }, { additionalProperties: false }),
  output: Entry,
  example: { id: '00000000-0000-0000-0000-000000000000' },
  async run({ ctx, input }) {
    return loadEntry(ctx.db, ctx.organizationId, input.id);
  },
});
