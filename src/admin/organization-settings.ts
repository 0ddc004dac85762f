import type { Kysely, Selectable } from 'kysely';
import { AppError, notFound, revisionConflict } from '../contract/errors.ts';
import type { Database } from '../db/schema.ts';
import type { OrganizationsTable } from '../db/tables/core.ts';
import type { UnitOfWork } from '../unit/unit-of-work.ts';

export type OrganizationRow = Selectable<OrganizationsTable>;

export interface OrganizationChanges {
  name?: string;
  legalName?: string | null;
  address?: string | null;
  timeZone?: string;
  defaultCurrency?: string | null;
  invoiceNumberPrefix?: string;
  /** Days an archived letter's scans are kept (company mail); null keeps them. */
  mailScanRetentionDays?: number | null;
}

/** An IANA zone name that this Node's ICU knows (`Europe/Paris`, `UTC`). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export async function requireOrganization(
  db: Kysely<Database>,
  organizationId: string,
): Promise<OrganizationRow> {
  const row = await db
    .selectFrom('organizations')
    .selectAll()
    .where('id', '=', organizationId)
    .executeTakeFirst();
  if (!row) throw notFound('Organization');
  return row;
}

/** Compare-and-set on the organization's revision, with its audit row. */
export async function updateOrganization(
  unit: UnitOfWork,
  expectedRevision: number,
  changes: OrganizationChanges,
): Promise<OrganizationRow> {
  if (changes.timeZone !== undefined && !isTimeZone(changes.timeZone)) {
    throw new AppError('invalid_input', 'timeZone is not a known IANA time zone (e.g. Europe/Paris).', {
      field: 'timeZone',
    });
  }
  const updated = await unit.db
    .updateTable('organizations')
    .set({
      ...(changes.name === undefined ? {} : { name: changes.name }),
      ...(changes.legalName === undefined ? {} : { legal_name: changes.legalName }),
      ...(changes.address === undefined ? {} : { address: changes.address }),
      ...(changes.timeZone === undefined ? {} : { time_zone: changes.timeZone }),
      ...(changes.defaultCurrency === undefined ? {} : { default_currency: changes.defaultCurrency }),
      ...(changes.invoiceNumberPrefix === undefined
        ? {}
        : { invoice_number_prefix: changes.invoiceNumberPrefix }),
      ...(changes.mailScanRetentionDays === undefined
        ? {}
        : { mail_scan_retention_days: changes.mailScanRetentionDays }),
      revision: expectedRevision + 1,
      updated_at: unit.clock.now().toISOString(),
    })
    .where('id', '=', unit.organizationId)
    .where('revision', '=', expectedRevision)
    .returningAll()
    .executeTakeFirst();
  if (!updated) {
    const current = await requireOrganization(unit.db, unit.organizationId);
    throw revisionConflict(current.revision);
  }
  await unit.audit({
    recordType: 'organization',
    recordId: unit.organizationId,
    beforeRevision: expectedRevision,
    afterRevision: updated.revision,
  });
  return updated;
}
