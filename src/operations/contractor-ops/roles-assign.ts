import { Type } from 'typebox';
import { AppError, notFound } from '../../contract/errors.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { asBool } from '../../db/values.ts';
import { loadForChange } from '../../unit/revision.ts';
import { Contractor, toContractor } from '../contractors/schema.ts';
import { applyChange, reloadContractor, requireContractor } from '../contractors/store.ts';
import { defineOperation } from '../define.ts';

export const assignJobRole = defineOperation({
  name: 'contractorOps.roles.assign',
  summary: 'Assign a job role to a contractor, or clear it',
  description:
    "Sets the contractor's job role (it must be active) or clears it with `jobRoleId: null`. The revision is the contractor's. Assigning the role the contractor already has changes nothing (same revision, no event).",
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'required', auditOnlyOnChange: true },
  input: Type.Object(
    {
      contractorId: Id('Contractor id.'),
      expectedRevision: Revision("The contractor's revision last read."),
      jobRoleId: Type.Union([Id('ID of an active job role.'), Type.Null()], {
        description: 'ID of an active job role, or null to clear the role.',
      }),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: Contractor,
  example: {
    contractorId: '01927f3e-6a1c-7b2d-8e4f-0123456789ab',
    expectedRevision: 1,
    jobRoleId: '01927f3e-6a1c-7b2d-8e4f-0123456789ac',
    idempotencyKey: 'role-assign-0001',
  },
  async run({ ctx, input }) {
    const row = await loadForChange(
      requireContractor(ctx, input.contractorId, 'contractorId'),
      input.expectedRevision,
    );
    if (input.jobRoleId !== null) {
      const role = await ctx.db
        .selectFrom('job_roles')
        .select(['id', 'active'])
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', input.jobRoleId)
        .executeTakeFirst();
      if (!role) throw notFound('Job role', 'jobRoleId');
      // Checked even when unchanged: re-assigning an inactive role is refused, not silently kept.
      if (!asBool(role.active))
        throw new AppError('job_role_inactive', 'The job role is not active.', { field: 'jobRoleId' });
    }
    if (input.jobRoleId === row.job_role_id) return toContractor(await reloadContractor(ctx, row.id));
    await applyChange(ctx, row, { job_role_id: input.jobRoleId });
    await ctx.emit({
      type: 'contractor.role_assigned',
      subject: { type: 'contractor', id: row.id },
      data: { jobRoleId: input.jobRoleId, previousJobRoleId: row.job_role_id },
    });
    return toContractor(await reloadContractor(ctx, row.id));
  },
});
