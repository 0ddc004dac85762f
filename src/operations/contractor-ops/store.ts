import type { Selectable } from 'kysely';
import { AppError } from '../../contract/errors.ts';
import type { JobRolesTable } from '../../db/tables/contractors.ts';
import type { OperationContext } from '../context.ts';
import { toJobRole } from './schema.ts';

/** A role row as written: booleans as 1/0 (see src/db/values.ts). */
export type RoleRow = Selectable<JobRolesTable> & { active: number };

export function findRole(ctx: OperationContext, id: string) {
  return ctx.db
    .selectFrom('job_roles')
    .selectAll()
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function checkNameFree(ctx: OperationContext, normalized: string, exceptId: string | null) {
  let query = ctx.db
    .selectFrom('job_roles')
    .select('id')
    .where('organization_id', '=', ctx.organizationId)
    .where('name_normalized', '=', normalized);
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw nameTaken();
}

export function nameTaken(): AppError {
  return new AppError('job_role_name_taken', 'Another job role in this organization has this name.', {
    field: 'name',
  });
}

export async function emitSaved(ctx: OperationContext, row: RoleRow, created: boolean) {
  const role = toJobRole(row);
  await ctx.emit({
    type: 'job_role.saved',
    subject: { type: 'job_role', id: role.id },
    data: {
      created,
      name: role.name,
      hourlyRateMinor: role.hourly_rate_minor,
      currency: role.currency,
      payCadence: role.pay_cadence,
      active: role.active,
    },
  });
}
