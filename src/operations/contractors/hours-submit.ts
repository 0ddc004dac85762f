import { Type } from 'typebox';
import { DateString, Id, IdempotencyKey } from '../../contract/formats.ts';
import { HOURS_PATTERN, submitHours } from '../../contractors/hours.ts';
import { Hours, toHours } from '../../contractors/hours-wire.ts';
import { defineOperation } from '../define.ts';
import { requireContractor } from './store.ts';

export const HoursValue = Type.String({
  pattern: HOURS_PATTERN,
  description: 'Hours worked that day, above 0 and at most 24, up to two fraction digits ("7.25").',
});
export const HoursDescription = Type.String({
  minLength: 1,
  maxLength: 500,
  description: 'What was done, 1-500 characters.',
});

export const submitHoursOperation = defineOperation({
  name: 'contractors.hours.submit',
  summary: "Submit a contractor's hours for a day",
  description:
    "Records hours for a contractor (the contractor does the same in the portal). The amount is hours x the role's hourly rate, rounded half-even to a whole minor unit, in the role's currency. A contractor without a role: 409 `rate_missing`. The hours start `submitted`.",
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'none' },
  input: Type.Object(
    {
      contractorId: Id('Contractor id.'),
      workDate: DateString('The day worked (YYYY-MM-DD).'),
      hours: HoursValue,
      description: HoursDescription,
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: Hours,
  example: {
    contractorId: '01927f3e-6a1c-7b2d-8e4f-0123456789ab',
    workDate: '2026-09-21',
    hours: '7.25',
    description: 'Bookkeeping clean-up',
    idempotencyKey: 'hours-submit-0001',
  },
  async run({ ctx, input }) {
    await requireContractor(ctx, input.contractorId, 'contractorId');
    return toHours(await submitHours(ctx, input.contractorId, input));
  },
});
