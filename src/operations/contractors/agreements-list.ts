import { Type } from 'typebox';
import { Id, Limit, Offset } from '../../contract/formats.ts';
import { AGREEMENT_COLUMNS, Agreement, toAgreement } from '../../contractors/agreement-wire.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';

export const listAgreementsOperation = defineOperation({
  name: 'contractors.agreements.list',
  summary: 'List agreements, newest first',
  description: 'Optionally of one contractor and in one status. Offset pagination.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      contractorId: Type.Optional(Id('Only this contractor.')),
      status: Type.Optional(
        Type.Union([Type.Literal('sent'), Type.Literal('signed'), Type.Literal('voided')], {
          description: 'sent, signed or voided.',
        }),
      ),
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(Agreement, 'The page of agreements, newest first.'),
  example: { contractorId: '01927f3e-6a1c-7b2d-8e4f-0123456789ab', status: 'signed' },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    let query = ctx.db
      .selectFrom('contractor_agreements')
      .select(AGREEMENT_COLUMNS)
      .where('organization_id', '=', ctx.organizationId);
    if (input.contractorId !== undefined) query = query.where('contractor_id', '=', input.contractorId);
    if (input.status !== undefined) query = query.where('status', '=', input.status);
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    return offsetPage(rows.map(toAgreement), limit, offset);
  },
});
