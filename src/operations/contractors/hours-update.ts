import { Type } from 'typebox';
import { DateString, Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { checkSubmitted, loadHours, updateHours } from '../../contractors/hours.ts';
import { Hours, toHours } from '../../contractors/hours-wire.ts';
import { defineOperation } from '../define.ts';
import { HoursDescription, HoursValue } from './hours-submit.ts';

export const updateHoursOperation = defineOperation({
  name: 'contractors.hours.update',
  summary: 'Change submitted hours before review',
  description:
    "Only while `submitted` (409 `hours_not_submitted` otherwise, with `status`); a stale `expectedRevision` is 409 `revision_conflict`. Changing `hours` re-prices them at the role's current rate.",
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Hours id.'),
      expectedRevision: Revision(),
      workDate: Type.Optional(DateString('The day worked (YYYY-MM-DD).')),
      hours: Type.Optional(HoursValue),
      description: Type.Optional(HoursDescription),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: Hours,
  example: {
    id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab',
    expectedRevision: 1,
    hours: '6.50',
    idempotencyKey: 'hours-update-0001',
  },
  async run({ ctx, input }) {
    const row = await loadHours(ctx, input.id);
    checkSubmitted(row, input.expectedRevision);
    const { id: _id, expectedRevision: _rev, idempotencyKey: _key, ...fields } = input;
    return toHours(await updateHours(ctx, row, fields));
  },
});
