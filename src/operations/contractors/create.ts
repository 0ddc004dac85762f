import { Type } from 'typebox';
import { AppError, notFound } from '../../contract/errors.ts';
import { Country, Email, Id, IdempotencyKey, SingleLineText } from '../../contract/formats.ts';
import { asBool, dbBool } from '../../db/values.ts';
import { newId } from '../../lib/ids.ts';
import { defineOperation } from '../define.ts';
import { Contractor, toContractor } from './schema.ts';
import { explainEmailTaken } from './store.ts';

export const createContractor = defineOperation({
  name: 'contractors.create',
  summary: 'Create a contractor',
  description: 'Adds a contractor to the organization. No invitation is sent; use contractors.invite.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'none' },
  input: Type.Object(
    {
      displayName: SingleLineText(1, 200, 'Name shown in the app, 1-200 characters on one line.'),
      legalName: SingleLineText(1, 300, 'Legal name, 1-300 characters on one line.'),
      email: Email('Email, unique within the organization (case-insensitive).'),
      country: Type.Optional(Country),
      jobRoleId: Type.Optional(
        Type.Union([Id('ID of an active job role.'), Type.Null()], {
          description: 'ID of an active job role, or null.',
        }),
      ),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: Contractor,
  example: {
    displayName: 'Ada',
    legalName: 'Ada Lovelace',
    email: 'ada@example.com',
    country: 'GB',
    idempotencyKey: 'contractor-create-0001',
  },
  async run({ ctx, input }) {
    if (input.jobRoleId) {
      const role = await ctx.db
        .selectFrom('job_roles')
        .select(['id', 'active'])
        .where('id', '=', input.jobRoleId)
        .where('organization_id', '=', ctx.organizationId)
        .executeTakeFirst();
      if (!role) throw notFound('Job role', 'jobRoleId');
      if (!asBool(role.active))
        throw new AppError('job_role_inactive', 'The job role is not active.', { field: 'jobRoleId' });
    }
    const now = ctx.clock.now().toISOString();
    const row = {
      id: newId(),
      organization_id: ctx.organizationId,
      display_name: input.displayName,
      legal_name: input.legalName,
      email: input.email,
      email_normalized: input.email.toLowerCase(),
      country: input.country ?? null,
      active: dbBool(true),
      job_role_id: input.jobRoleId ?? null,
      joined_at: null,
      tax_residency: null,
      tax_services_in_canada: null,
      tax_identity_confirmed: dbBool(false),
      tax_reviewed_at: null,
      tax_reviewed_by: null,
      revision: 1,
      created_at: now,
      updated_at: now,
    };
    // Written at the unit's end with its audit row and event: on PostgreSQL one round trip.
    ctx.insertAtEnd('contractors', row, explainEmailTaken);
    await ctx.audit({ recordType: 'contractor', recordId: row.id, beforeRevision: null, afterRevision: 1 });
    const contractor = toContractor(row);
    await ctx.emit({
      type: 'contractor.created',
      subject: { type: 'contractor', id: row.id },
      data: {
        displayName: contractor.display_name,
        email: contractor.email,
        country: contractor.country,
        jobRoleId: contractor.job_role_id,
      },
    });
    return contractor;
  },
});
