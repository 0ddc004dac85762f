import { Type } from 'typebox';
import { Id } from '../../contract/formats.ts';
import { Agreement, toAgreement } from '../../contractors/agreement-wire.ts';
import { loadAgreement } from '../../contractors/agreements.ts';
import { defineOperation } from '../define.ts';

export const getAgreementOperation = defineOperation({
  name: 'contractors.agreements.get',
  summary: 'One agreement and its signature record',
  description:
    'Status, document hash and, once signed, the typed name, time and client address. Unknown id: 404.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Agreement id.') }, { additionalProperties: false }),
  output: Agreement,
  example: { id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab' },
  async run({ ctx, input }) {
    return toAgreement(await loadAgreement(ctx.db, ctx.organizationId, input.id));
  },
});
