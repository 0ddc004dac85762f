import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import type { AuditLogTable } from '../../src/db/tables/core.ts';

export type AuditRow = Selectable<AuditLogTable>;
type AuditColumn = keyof AuditRow & string;

/** Which audit rows to read back; every given field must match. */
export interface AuditFilter {
  organizationId?: string;
  recordId?: string;
  requestId?: string;
  operation?: string;
  actorId?: string;
  afterRevision?: number;
}

type Source = Kysely<Database> | { services: { db: { kysely: Kysely<Database> } } };

/**
 * The audit rows a test asserts on, read back from `audit_log` (of a test app or a database),
 * in `orderBy` order (none: as the database returns them), all columns or just `columns`.
 */
export async function auditRows(source: Source, filter: AuditFilter): Promise<AuditRow[]>;
export async function auditRows<C extends AuditColumn>(
  source: Source,
  filter: AuditFilter,
  options: { columns?: readonly C[]; orderBy?: readonly AuditColumn[] },
): Promise<Pick<AuditRow, C>[]>;
export async function auditRows(
  source: Source,
  filter: AuditFilter,
  options: { columns?: readonly AuditColumn[]; orderBy?: readonly AuditColumn[] } = {},
): Promise<Partial<AuditRow>[]> {
  const kysely = 'services' in source ? source.services.db.kysely : source;
  let query = kysely.selectFrom('audit_log').selectAll();
  if (filter.organizationId !== undefined) query = query.where('organization_id', '=', filter.organizationId);
  if (filter.recordId !== undefined) query = query.where('record_id', '=', filter.recordId);
  if (filter.requestId !== undefined) query = query.where('request_id', '=', filter.requestId);
  if (filter.operation !== undefined) query = query.where('operation', '=', filter.operation);
  if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
  if (filter.afterRevision !== undefined) query = query.where('after_revision', '=', filter.afterRevision);
  for (const column of options.orderBy ?? []) query = query.orderBy(column);
  const rows = await query.execute();
  const { columns } = options;
  if (columns === undefined) return rows;
  return rows.map((row) => Object.fromEntries(columns.map((column) => [column, row[column]])));
}
