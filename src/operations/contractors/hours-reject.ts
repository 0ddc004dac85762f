import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { checkSubmitted, decideHours, loadHours } from '../../contractors/hours.ts';
import { Hours, toHours } from '../../contractors/hours-wire.ts';
import { defineOperation } from '../define.ts';

export const rejectHoursOperation = defineOperation({
  name: 'contractors.hours.reject',
  summary: 'Reject submitted hours with a reason',
  description:
    'submitted -> rejected; the contractor sees the reason in the portal. Other states: 409 `hours_not_submitted`; stale revision: 409 `revision_conflict`.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Hours id.'),
      expectedRevision: Revision(),
      reason: Type.String({
        minLength: 1,
        maxLength: 500,
        description: 'Why, shown to the contractor, 1-500 characters.',
      }),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: Hours,
  example: {
    id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab',
    expectedRevision: 1,
    reason: 'Not a working day for this project',
    idempotencyKey: 'reject-0001',
  },
  async run({ ctx, input }) {
    const row = await loadHours(ctx, input.id);
    checkSubmitted(row, input.expectedRevision);
    return toHours(await decideHours(ctx, row, { approve: false, reason: input.reason }));
  },
});
