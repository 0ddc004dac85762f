import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { Agreement, toAgreement } from '../../contractors/agreement-wire.ts';
import { loadAgreement, voidAgreement } from '../../contractors/agreements.ts';
import { defineOperation } from '../define.ts';

export const voidAgreementOperation = defineOperation({
  name: 'contractors.agreements.void',
  summary: 'Void an agreement',
  description:
    'A sent agreement can no longer be signed; a signed one is no longer on file (the directory stops counting it). Already voided: 409 `agreement_voided`; stale revision: 409 `revision_conflict`. Cannot be undone; send a new agreement instead.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'required', destructive: true },
  input: Type.Object(
    {
      id: Id('Agreement id.'),
      expectedRevision: Revision(),
      reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why, 1-500 characters.' }),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: Agreement,
  example: {
    id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab',
    expectedRevision: 1,
    reason: 'Sent to the wrong contractor',
    idempotencyKey: 'agreement-void-0001',
  },
  async run({ ctx, input }) {
    const row = await loadAgreement(ctx.db, ctx.organizationId, input.id);
    return toAgreement(await voidAgreement(ctx, row, input.expectedRevision, input.reason));
  },
});
