import { Type } from 'typebox';
import { Limit, Offset } from '../../contract/formats.ts';
import { dbBool } from '../../db/values.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { JobRole, toJobRole } from './schema.ts';

export const listJobRoles = defineOperation({
  name: 'contractorOps.roles.list',
  summary: 'List job roles, by name',
  description:
    'Offset pagination, sorted by name (case-insensitive) so a picker reads alphabetically. `active` narrows to active or inactive roles.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      active: Type.Optional(
        Type.Boolean({ description: 'Only active (true) or only inactive (false) roles.' }),
      ),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(JobRole, 'The page of job roles, sorted by name (case-insensitive), then id.'),
  example: { limit: 30, offset: 0, active: true },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    let query = ctx.db.selectFrom('job_roles').selectAll().where('organization_id', '=', ctx.organizationId);
    if (input.active !== undefined) query = query.where('active', '=', dbBool(input.active));
    const rows = await query
      .orderBy('name_normalized')
      .orderBy('id')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    return offsetPage(rows.map(toJobRole), limit, offset);
  },
});
