import { Type } from 'typebox';
import { notFound } from '../../contract/errors.ts';
import { Id } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { ContractorWithTaxProfile, toContractorWithTaxProfile } from './schema.ts';
import { selectContractors } from './store.ts';

export const getContractor = defineOperation({
  name: 'contractors.get',
  summary: 'Get a contractor with the reviewed tax profile',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Contractor id.') }, { additionalProperties: false }),
  output: ContractorWithTaxProfile,
  example: { id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab' },
  async run({ ctx, input }) {
    const row = await selectContractors(ctx.db, ctx.organizationId, ctx.clock.now())
      .where('c.id', '=', input.id)
      .executeTakeFirst();
    if (!row) throw notFound('Contractor', 'id');
    return toContractorWithTaxProfile(row);
  },
});
