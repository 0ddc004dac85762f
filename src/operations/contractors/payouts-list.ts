import { Type } from 'typebox';
import { Id, Limit, Offset } from '../../contract/formats.ts';
import { Payout } from '../../contractors/payout-wire.ts';
import { withLines } from '../../contractors/payouts.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';

export const listPayoutsOperation = defineOperation({
  name: 'contractors.payouts.list',
  summary: 'List payouts, newest period first',
  description: 'Optionally of one contractor and in one status. Offset pagination.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      contractorId: Type.Optional(Id('Only this contractor.')),
      status: Type.Optional(
        Type.Union([Type.Literal('unpaid'), Type.Literal('paid')], { description: 'unpaid or paid.' }),
      ),
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(Payout, 'The page of payouts, newest period end first.'),
  example: { contractorId: '01927f3e-6a1c-7b2d-8e4f-0123456789ab', status: 'unpaid' },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    let query = ctx.db
      .selectFrom('contractor_payments')
      .selectAll()
      .where('organization_id', '=', ctx.organizationId);
    if (input.contractorId !== undefined) query = query.where('contractor_id', '=', input.contractorId);
    if (input.status !== undefined) query = query.where('status', '=', input.status);
    const rows = await query
      .orderBy('period_end', 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    return offsetPage(await withLines(ctx.db, ctx.organizationId, rows), limit, offset);
  },
});
