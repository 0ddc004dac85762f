import { Type } from 'typebox';
import { Id, Limit, Offset } from '../../contract/formats.ts';
import { listHours } from '../../contractors/hours-query.ts';
import { Hours, HoursStatus, toHours } from '../../contractors/hours-wire.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';

export const listHoursOperation = defineOperation({
  name: 'contractors.hours.list',
  summary: 'List hours, newest work date first',
  description:
    'Hours of the organization, optionally of one contractor and in one status; newest work date first. Offset pagination.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      contractorId: Type.Optional(Id('Only this contractor.')),
      status: Type.Optional(HoursStatus),
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(Hours, 'The page of hours, newest work date first.'),
  example: { contractorId: '01927f3e-6a1c-7b2d-8e4f-0123456789ab', status: 'submitted', limit: 30 },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    const rows = await listHours(ctx.db, ctx.organizationId, { ...input, limit: limit + 1, offset });
    return offsetPage(rows.map(toHours), limit, offset);
  },
});
