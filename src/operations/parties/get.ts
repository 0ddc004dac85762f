import { Type } from 'typebox';
import { notFound } from '../../contract/errors.ts';
import { Id } from '../../contract/formats.ts';
import { loadParty } from '../../invoicing/invoices/index.ts';
import { defineOperation } from '../define.ts';
import { Party, toPartyRecord } from './schema.ts';

export const getParty = defineOperation({
  name: 'parties.get',
  summary: 'Get a party',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Party id.') }, { additionalProperties: false }),
  output: Party,
  example: { id: '00000000-0000-0000-0000-000000000000' },
  async run({ ctx, input }) {
    const party = await loadParty(ctx.db, ctx.organizationId, input.id);
    if (!party) throw notFound('Party', 'id');
    return toPartyRecord(party);
  },
});
