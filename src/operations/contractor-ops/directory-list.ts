import { type RawBuilder, sql } from 'kysely';
import { Type } from 'typebox';
import { Country, Id, Limit, Offset, Timestamp } from '../../contract/formats.ts';
import { NameQuery, nameFilter } from '../../contractors/name-search.ts';
import type { PayCadence as PayCadenceValue } from '../../db/tables/contractors.ts';
import { asBool, asIso, asMinor, dbBool } from '../../db/values.ts';
import { contractorPageIds, formatHours, UNPAID_HOURS } from '../contractors/store.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { PayCadence } from './schema.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

/** One directory row: the contractor with role, pay terms, agreement and pending hours. */
export const DirectoryEntry = Type.Object(
  {
    id: Id('Contractor id.'),
    display_name: Type.String({
      description: 'Name shown in the app, invitation emails and the portal, 1-200 characters.',
    }),
    legal_name: Type.String({ description: 'Legal name, 1-300 characters.' }),
    email: Type.String({
      description: "Email address, unique in the organization; kept in the caller's spelling.",
    }),
    country: Nullable(Country, 'Two-letter country code.'),
    active: Type.Boolean({ description: 'Portal access flag.' }),
    job_role: Nullable(
      Type.Object(
        { id: Id('Job role id.'), name: Type.String({ description: 'Name of the job role.' }) },
        { additionalProperties: false },
      ),
      'The assigned job role, or null.',
    ),
    hourly_rate_minor: Nullable(Type.String(), "The role's hourly rate, decimal string of minor units."),
    currency: Nullable(Type.String(), "The role's ISO 4217 currency."),
    pay_cadence: Nullable(PayCadence, "The role's pay cadence."),
    agreement_on_file: Type.Boolean({
      description: 'Whether a signed agreement (not voided) is on file for the contractor.',
    }),
    pending_hours: Type.String({
      description:
        'Hours submitted or approved and not yet paid (rejected hours excluded), decimal string with two fraction digits ("12.50").',
    }),
    revision: Type.Integer({
      minimum: 1,
      description: "The contractor's revision (as in contractors.get); send it as expectedRevision.",
    }),
    created_at: Timestamp('When the contractor was created (ISO 8601, UTC).'),
  },
  { title: 'ContractorDirectoryEntry', additionalProperties: false },
);

export const listDirectory = defineOperation({
  name: 'contractorOps.directory.list',
  summary: 'Contractor directory: role, rate, pay cadence, agreement on file, pending hours',
  description:
    'Offset pagination, newest contractors first (as contractors.list). `query` filters by display or legal name (case-insensitive substring); `active` by portal access. Rate, currency and cadence are those of the assigned role (null without a role).',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      query: Type.Optional(NameQuery),
      active: Type.Optional(
        Type.Boolean({ description: 'Only contractors with portal access on (true) or off (false).' }),
      ),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(DirectoryEntry, 'The page of directory entries, newest contractors first.'),
  example: { limit: 30, offset: 0, query: 'ada', active: true },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    const query = ctx.db
      .selectFrom('contractors as c')
      .leftJoin('job_roles as r', (join) =>
        join.onRef('r.id', '=', 'c.job_role_id').onRef('r.organization_id', '=', 'c.organization_id'),
      )
      .select([
        'c.id',
        'c.display_name',
        'c.legal_name',
        'c.email',
        'c.country',
        'c.active',
        'c.revision',
        'c.created_at',
        'r.id as role_id',
        'r.name as role_name',
        'r.hourly_rate_minor',
        'r.currency',
        'r.pay_cadence',
      ])
      .select((eb) => [
        eb
          .exists(
            eb
              .selectFrom('contractor_agreements as a')
              .select('a.id')
              .whereRef('a.contractor_id', '=', 'c.id')
              .whereRef('a.organization_id', '=', 'c.organization_id')
              .where('a.status', '=', 'signed'),
          )
          .as('agreement_on_file'),
        eb
          .selectFrom('contractor_hours as h')
          .select((e) => e.fn.sum<string | number | null>('h.hours_hundredths').as('total'))
          .whereRef('h.contractor_id', '=', 'c.id')
          .whereRef('h.organization_id', '=', 'c.organization_id')
          .where('h.status', 'in', UNPAID_HOURS)
          .as('pending_hundredths'),
      ])
      .where('c.organization_id', '=', ctx.organizationId);
    // The page's ids first, then the joins and per-row subqueries for those rows only.
    const filters: Array<RawBuilder<boolean>> = [];
    const search = input.query ? await nameFilter(ctx.db, input.query, ctx.dialect) : undefined;
    if (search) filters.push(search.where);
    if (input.active !== undefined) filters.push(sql<boolean>`c.active = ${dbBool(input.active)}`);
    const rows = await query
      .where(
        'c.id',
        'in',
        contractorPageIds(ctx.db, ctx.organizationId, {
          limit: limit + 1,
          offset,
          filters,
          newest: search?.newest,
        }),
      )
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .execute();
    const items = rows.map((row) => ({
      id: row.id,
      display_name: row.display_name,
      legal_name: row.legal_name,
      email: row.email,
      country: row.country,
      active: asBool(row.active),
      job_role: row.role_id && row.role_name !== null ? { id: row.role_id, name: row.role_name } : null,
      hourly_rate_minor: row.hourly_rate_minor === null ? null : asMinor(row.hourly_rate_minor).toString(),
      currency: row.currency,
      pay_cadence: row.pay_cadence as PayCadenceValue | null,
      agreement_on_file: asBool(row.agreement_on_file),
      pending_hours: formatHours(BigInt(row.pending_hundredths ?? 0)),
      revision: row.revision,
      created_at: asIso(row.created_at),
    }));
    return offsetPage(items, limit, offset);
  },
});
