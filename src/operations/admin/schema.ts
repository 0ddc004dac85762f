import type { Selectable } from 'kysely';
import { type Static, Type } from 'typebox';
import type { ApiKeyRow } from '../../admin/api-keys.ts';
import { keyStatus } from '../../admin/api-keys.ts';
import type { MemberRow } from '../../admin/members.ts';
import type { OrganizationRow } from '../../admin/organization-settings.ts';
import { ALL_SCOPES, ROLES, type Role, type Scope } from '../../contract/access.ts';
import { Id, Timestamp } from '../../contract/formats.ts';
import type { AuditLogTable } from '../../db/tables/core.ts';
import { asIso, asIsoOrNull, asJson } from '../../db/values.ts';

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const NullableTimestamp = (description: string) =>
  Type.Union([Timestamp(description), Type.Null()], { description });
const Revision = Type.Integer({
  minimum: 1,
  description: 'Revision: 1 at creation, +1 on every change; send it as expectedRevision.',
});

export const RoleInput = Type.Union([Type.Literal('admin'), Type.Literal('finance')], {
  description: 'Role: `admin` (everything, administration included) or `finance`.',
});
export const ScopeValue = Type.Union(
  [
    Type.Literal('accounting:read'),
    Type.Literal('accounting:write'),
    Type.Literal('accounting:admin'),
    Type.Literal('mail:read'),
    Type.Literal('mail:write'),
  ],
  { description: 'A scope.' },
);
// Fails to compile if a scope or role is added to contract/access.ts but not to the literals above.
export const LISTED_SCOPES: readonly Static<typeof ScopeValue>[] = ALL_SCOPES;
export const LISTED_ROLES: readonly Static<typeof RoleInput>[] = ROLES;

export const Organization = Type.Object(
  {
    id: Id('Organization id.'),
    name: Type.String({ description: 'Display name; printed on invoices, PDFs and mail.' }),
    legal_name: NullableString('Registered legal name, or null.'),
    address: NullableString('Postal address as free text (several lines), or null.'),
    time_zone: Type.String({ description: 'IANA time zone: dates on invoices and "today" are taken in it.' }),
    default_currency: NullableString('ISO 4217 currency code proposed for new documents, or null.'),
    invoice_number_prefix: Type.String({
      description: 'Put before the invoice number, e.g. INV- in INV-000001.',
    }),
    mail_scan_retention_days: Type.Union([Type.Integer(), Type.Null()], {
      description: "Days an archived letter's scans are kept; null keeps them (company mail).",
    }),
    revision: Revision,
    created_at: Timestamp('Creation time.'),
    updated_at: Timestamp('Last change.'),
  },
  { title: 'Organization', additionalProperties: false },
);
export type Organization = Static<typeof Organization>;

export function toOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    legal_name: row.legal_name,
    address: row.address,
    time_zone: row.time_zone,
    default_currency: row.default_currency,
    invoice_number_prefix: row.invoice_number_prefix,
    mail_scan_retention_days:
      row.mail_scan_retention_days === null ? null : Number(row.mail_scan_retention_days),
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at ?? row.created_at),
  };
}

export const Member = Type.Object(
  {
    id: Id('Member id.'),
    email: Type.String({ description: 'Email address (lower-cased), unique in the organization.' }),
    name: NullableString('Display name, or null.'),
    role: RoleInput,
    status: Type.Union([Type.Literal('active'), Type.Literal('suspended'), Type.Literal('removed')], {
      description:
        '`active`, `suspended` (keys revoked; an admin can reinstate them in the dashboard) or `removed` (final).',
    }),
    revision: Revision,
    created_at: Timestamp('When the member was added.'),
    updated_at: Timestamp('Last change.'),
  },
  { title: 'Member', additionalProperties: false },
);
export type Member = Static<typeof Member>;

export function toMember(row: MemberRow): Member {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as Role,
    status: row.status as Member['status'],
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}

export const ApiKey = Type.Object(
  {
    id: Id('Key id (not the key itself).'),
    name: NullableString('Label, or null.'),
    created_by: Id('The member who created the key; the key acts as this member.'),
    scopes: Type.Array(ScopeValue, { description: 'Scopes the key carries.' }),
    status: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')], {
      description: '`active`, `expired` (past expires_at) or `revoked`.',
    }),
    created_at: Timestamp('Creation time.'),
    last_used_at: NullableTimestamp('Last request made with the key (to the minute), or null.'),
    expires_at: NullableTimestamp('When the key stops working, or null for never.'),
    revoked_at: NullableTimestamp('When the key was revoked, or null.'),
    revision: Revision,
  },
  { title: 'ApiKey', additionalProperties: false },
);
export type ApiKey = Static<typeof ApiKey>;

export function toApiKey(row: ApiKeyRow, now: Date): ApiKey {
  return {
    id: row.id,
    name: row.name,
    created_by: row.member_id,
    scopes: asJson<Scope[]>(row.scopes),
    status: keyStatus(row, now),
    created_at: asIso(row.created_at),
    last_used_at: asIsoOrNull(row.last_used_at),
    expires_at: asIsoOrNull(row.expires_at),
    revoked_at: asIsoOrNull(row.revoked_at),
    revision: row.revision,
  };
}

export const ApiKeyWithSecret = Type.Object(
  {
    key: ApiKey,
    secret: Type.String({ description: 'The API key itself (ak_...). Shown only now; store it safely.' }),
  },
  { title: 'ApiKeyWithSecret', additionalProperties: false },
);

export const AuditEntry = Type.Object(
  {
    id: Id('Audit entry id.'),
    actor_type: Type.String({
      description: '`member`, `system` (a job), `contractor` (the portal) or `operator` (the command line).',
    }),
    actor_id: Type.String({
      description: 'Member or contractor id, job:<name>, or operator:<OS user> for the command line.',
    }),
    credential_id: NullableString('The API key id (or OAuth credential) used, or null.'),
    transport: NullableString(
      '`http`, `mcp`, `cli`, `job` or `portal`; null for entries older than this field.',
    ),
    operation: Type.String({ description: 'The operation (or job) that made the change.' }),
    request_id: Type.String({ description: 'Request id (X-Request-Id) or job run id.' }),
    record_type: Type.String({ description: 'Kind of record changed, e.g. member, api_key, invoice.' }),
    record_id: Type.String({ description: 'Id of the record changed.' }),
    before_revision: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Revision before the change; null for a creation.',
    }),
    after_revision: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Revision after the change; null for a deletion.',
    }),
    created_at: Timestamp('When the change was committed.'),
  },
  { title: 'AuditEntry', additionalProperties: false },
);
export type AuditEntry = Static<typeof AuditEntry>;

export function toAuditEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: row.id,
    actor_type: row.actor_type,
    actor_id: row.actor_id,
    credential_id: row.credential_id,
    transport: row.transport,
    operation: row.operation,
    request_id: row.request_id,
    record_type: row.record_type,
    record_id: row.record_id,
    before_revision: row.before_revision,
    after_revision: row.after_revision,
    created_at: asIso(row.created_at),
  };
}
