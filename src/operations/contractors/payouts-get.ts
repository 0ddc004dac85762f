import { Type } from 'typebox';
import { Id } from '../../contract/formats.ts';
import { Payout } from '../../contractors/payout-wire.ts';
import { loadPayout, withLines } from '../../contractors/payouts.ts';
import { defineOperation } from '../define.ts';

export const getPayoutOperation = defineOperation({
  name: 'contractors.payouts.get',
  summary: 'One payout with its lines',
  description: 'Unknown id (or one of another organization): 404.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Payout id.') }, { additionalProperties: false }),
  output: Payout,
  example: { id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab' },
  async run({ ctx, input }) {
    const row = await loadPayout(ctx.db, ctx.organizationId, input.id);
    const [payout] = await withLines(ctx.db, ctx.organizationId, [row]);
    if (!payout) throw new Error('the payout just read is missing');
    return payout;
  },
});
