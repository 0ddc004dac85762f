import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { checkSubmitted, decideHours, loadHours } from '../../contractors/hours.ts';
import { Hours, toHours } from '../../contractors/hours-wire.ts';
import { defineOperation } from '../define.ts';

export const approveHoursOperation = defineOperation({
  name: 'contractors.hours.approve',
  summary: 'Approve submitted hours',
  description:
    'submitted -> approved; a payout of their period then includes them. Other states: 409 `hours_not_submitted`; stale revision: 409 `revision_conflict`.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'required' },
  input: Type.Object(
    { id: Id('Hours id.'), expectedRevision: Revision(), idempotencyKey: Type.Optional(IdempotencyKey(150)) },
    { additionalProperties: false },
  ),
  output: Hours,
  example: {
    id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab',
    expectedRevision: 1,
    idempotencyKey: 'approve-0001',
  },
  async run({ ctx, input }) {
    const row = await loadHours(ctx, input.id);
    checkSubmitted(row, input.expectedRevision);
    return toHours(await decideHours(ctx, row, { approve: true }));
  },
});
