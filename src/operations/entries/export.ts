import { Type } from 'typebox';
import { enqueueJob } from '../../books/jobs-queue.ts';
import { DateString, IdempotencyKey } from '../../contract/formats.ts';
import { refuseReversedDates } from '../date-range.ts';
import { defineOperation } from '../define.ts';
import { JobHandle } from '../transactions/schema.ts';

export const exportEntries = defineOperation({
  name: 'entries.export',
  summary: 'Export the entries of a date range as CSV (asynchronous)',
  description:
    'Queues a CSV of the entries dated from `from` to `to` (inclusive), one row per allocation, amounts as decimals of the currency; poll entries.exports.get, then download with entries.exports.download.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none' },
  input: Type.Object(
    {
      from: DateString('First date included.'),
      to: DateString('Last date included.'),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: JobHandle,
  example: { from: '2026-01-01', to: '2026-03-31' },
  async run({ ctx, input }) {
    refuseReversedDates(input.from, input.to);
    const job = await enqueueJob(ctx, {
      organizationId: ctx.organizationId,
      kind: 'entries_export',
      accountId: null,
      params: { from: input.from, to: input.to },
      fileName: null,
      mediaType: null,
      fileBytes: null,
      createdBy: `member:${ctx.principal.memberId}`,
      now: ctx.clock.now().toISOString(),
    });
    await ctx.audit({
      recordType: 'entries_export',
      recordId: job.id,
      beforeRevision: null,
      afterRevision: null,
    });
    return { job };
  },
});
