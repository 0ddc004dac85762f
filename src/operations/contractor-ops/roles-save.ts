import { Type } from 'typebox';
import { AppError, notFound, revisionConflict } from '../../contract/errors.ts';
import {
  Id,
  IdempotencyKey,
  MAX_SAFE,
  POSITIVE_MINOR_PATTERN,
  Revision,
  SingleLineText,
} from '../../contract/formats.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { PayCadence as PayCadenceValue } from '../../db/tables/contractors.ts';
import { asBool, asMinor, dbBool } from '../../db/values.ts';
import { isSupportedCurrency } from '../../invoicing/money.ts';
import { newId } from '../../lib/ids.ts';
import type { OperationContext } from '../context.ts';
import { defineOperation } from '../define.ts';
import { JobRole, PayCadence, toJobRole } from './schema.ts';
import { checkNameFree, emitSaved, findRole, nameTaken, type RoleRow } from './store.ts';

export const saveJobRole = defineOperation({
  name: 'contractorOps.roles.save',
  summary: 'Create or change a job role',
  description:
    'Without `id`: creates a role (name, hourlyRateMinor, currency and payCadence required; active by default). With `id` and `expectedRevision`: changes the fields sent and keeps the rest; a save that changes nothing keeps the revision. Names are unique within the organization (case-insensitive). Deactivating a role keeps it on the contractors who have it; inactive roles cannot be assigned.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'required', auditOnlyOnChange: true },
  input: Type.Object(
    {
      id: Type.Optional(Id('Job role id to change; omit to create a role.')),
      expectedRevision: Type.Optional(
        Revision('Revision of the role last read; required with id, refused without.'),
      ),
      name: Type.Optional(
        SingleLineText(1, 100, 'Role name, 1-100 characters on one line, unique (case-insensitive).'),
      ),
      description: Type.Optional(
        Type.Union([Type.String({ maxLength: 1000 }), Type.Null()], {
          description: 'Free text up to 1000 characters, or null.',
        }),
      ),
      hourlyRateMinor: Type.Optional(
        Type.String({
          pattern: POSITIVE_MINOR_PATTERN,
          description:
            'Hourly rate in minor units as a decimal string, 1 to 9007199254740991 (e.g. "5000" is 50.00).',
        }),
      ),
      currency: Type.Optional(
        Type.String({
          pattern: '^[A-Z]{3}$',
          description: 'ISO 4217 currency code, three uppercase letters.',
        }),
      ),
      payCadence: Type.Optional(PayCadence),
      active: Type.Optional(
        Type.Boolean({ description: 'Whether the role can be assigned (default true on create).' }),
      ),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: JobRole,
  // A change of an existing role; a create sends name, hourlyRateMinor, currency, payCadence without id.
  example: {
    id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab',
    expectedRevision: 1,
    hourlyRateMinor: '8000',
    idempotencyKey: 'role-save-0001',
  },
  async run({ ctx, input }) {
    if (input.hourlyRateMinor !== undefined && BigInt(input.hourlyRateMinor) > BigInt(MAX_SAFE))
      throw new AppError('invalid_input', 'hourlyRateMinor must be at most 9007199254740991.', {
        field: 'hourlyRateMinor',
      });
    if (input.currency !== undefined && !isSupportedCurrency(input.currency))
      throw new AppError('unsupported_currency', `${input.currency} is not a supported currency.`, {
        field: 'currency',
      });
    if (input.id === undefined) {
      if (input.expectedRevision !== undefined)
        throw new AppError('invalid_input', 'expectedRevision is only accepted with id.', {
          field: 'expectedRevision',
        });
      return create(ctx, input);
    }
    if (input.expectedRevision === undefined)
      throw new AppError('invalid_input', 'expectedRevision is required with id.', {
        field: 'expectedRevision',
      });
    return change(ctx, input.id, input.expectedRevision, input);
  },
});

interface Fields {
  name?: string;
  description?: string | null;
  hourlyRateMinor?: string;
  currency?: string;
  payCadence?: PayCadenceValue;
  active?: boolean;
}

async function create(ctx: OperationContext, input: Fields) {
  for (const field of ['name', 'hourlyRateMinor', 'currency', 'payCadence'] as const) {
    if (input[field] === undefined)
      throw new AppError('invalid_input', `${field} is required to create a role.`, { field });
  }
  const now = ctx.clock.now().toISOString();
  const row: RoleRow = {
    id: newId(),
    organization_id: ctx.organizationId,
    name: input.name ?? '',
    name_normalized: (input.name ?? '').toLowerCase(),
    description: input.description ?? null,
    hourly_rate_minor: input.hourlyRateMinor ?? '0',
    currency: input.currency ?? '',
    pay_cadence: input.payCadence ?? 'monthly',
    active: dbBool(input.active ?? true),
    revision: 1,
    created_at: now,
    updated_at: now,
  };
  await checkNameFree(ctx, row.name_normalized, null);
  try {
    await ctx.db.insertInto('job_roles').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
  await ctx.audit({ recordType: 'job_role', recordId: row.id, beforeRevision: null, afterRevision: 1 });
  await emitSaved(ctx, row, true);
  return toJobRole(row);
}

async function change(ctx: OperationContext, id: string, expectedRevision: number, input: Fields) {
  const found = await findRole(ctx, id);
  if (!found) throw notFound('Job role', 'id');
  const row: RoleRow = { ...found, active: dbBool(asBool(found.active)) };
  if (row.revision !== expectedRevision) throw revisionConflict(row.revision);
  const next: RoleRow = {
    ...row,
    name: input.name ?? row.name,
    name_normalized: (input.name ?? row.name).toLowerCase(),
    description: input.description === undefined ? row.description : input.description,
    hourly_rate_minor: input.hourlyRateMinor ?? asMinor(row.hourly_rate_minor).toString(),
    currency: input.currency ?? row.currency,
    pay_cadence: input.payCadence ?? row.pay_cadence,
    active: dbBool(input.active ?? asBool(row.active)),
  };
  const changed =
    next.name !== row.name ||
    next.description !== row.description ||
    next.hourly_rate_minor !== asMinor(row.hourly_rate_minor).toString() ||
    next.currency !== row.currency ||
    next.pay_cadence !== row.pay_cadence ||
    asBool(next.active) !== asBool(row.active);
  // Nothing differs: same revision, no audit row, no event (as contractors.update).
  if (!changed) return toJobRole(row);
  if (next.name_normalized !== row.name_normalized) await checkNameFree(ctx, next.name_normalized, row.id);
  next.revision = row.revision + 1;
  next.updated_at = ctx.clock.now().toISOString();
  try {
    const result = await ctx.db
      .updateTable('job_roles')
      .set({
        name: next.name,
        name_normalized: next.name_normalized,
        description: next.description,
        hourly_rate_minor: next.hourly_rate_minor,
        currency: next.currency,
        pay_cadence: next.pay_cadence,
        active: next.active,
        revision: next.revision,
        updated_at: next.updated_at,
      })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', row.id)
      .where('revision', '=', row.revision)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) {
      const current = await findRole(ctx, row.id);
      if (!current) throw notFound('Job role', 'id');
      throw revisionConflict(current.revision);
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
  await ctx.audit({
    recordType: 'job_role',
    recordId: row.id,
    beforeRevision: row.revision,
    afterRevision: next.revision,
  });
  await emitSaved(ctx, next, false);
  return toJobRole(next);
}
