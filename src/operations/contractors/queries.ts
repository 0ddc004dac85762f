import { type Kysely, type RawBuilder, sql } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/schema.ts';

/** The `query` input of contractors.list and contractorOps.directory.list, matched by nameFilter. */
export const NameQuery = Type.String({
  maxLength: 200,
  description: 'Filter on display or legal name, up to 200 characters.',
});

/**
 * Contractors of one organization (never any other), aliased `c`, with the status of their latest
 * invitation as it stands at `now` (`open`, `expired`, `revoked`, ...) for `portal_status`.
 */
export function selectContractors(db: Kysely<Database>, organizationId: string, now: Date) {
  return db
    .selectFrom('contractors as c')
    .selectAll('c')
    .select(
      sql<
        string | null
      >`(select case when ci.status = 'open' and ci.expires_at <= ${now.toISOString()} then 'expired' else ci.status end from contractor_invitations ci where ci.contractor_id = c.id order by ci.created_at desc, ci.id desc limit 1)`.as(
        'latest_invitation_status',
      ),
    )
    .where('c.organization_id', '=', organizationId);
}

/**
 * Case-insensitive substring filter on `c.display_name` / `c.legal_name`. The explicit ESCAPE
 * is needed because SQLite has no default escape character while PostgreSQL uses backslash.
 */
export function nameFilter(query: string): RawBuilder<boolean> {
  const pattern = `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`(lower(c.display_name) like ${pattern} escape '\\' or lower(c.legal_name) like ${pattern} escape '\\')`;
}

/** What a contractor is still owed: pending (unpaid) hours and unpaid payments. */
export interface UnpaidSummary {
  pendingHoursHundredths: bigint;
  unpaidPayments: number;
}

export async function unpaidSummary(
  db: Kysely<Database>,
  organizationId: string,
  contractorId: string,
): Promise<UnpaidSummary> {
  const hours = await db
    .selectFrom('contractor_hours')
    .select((eb) => eb.fn.sum<string | number | null>('hours_hundredths').as('total'))
    .where('organization_id', '=', organizationId)
    .where('contractor_id', '=', contractorId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  const payments = await db
    .selectFrom('contractor_payments')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('contractor_id', '=', contractorId)
    .where('status', '=', 'unpaid')
    .executeTakeFirst();
  return {
    pendingHoursHundredths: BigInt(hours?.total ?? 0),
    unpaidPayments: Number(payments?.n ?? 0),
  };
}

/** Hundredths of an hour as a decimal string with two fraction digits: 725n -> "7.25". */
export function formatHours(hundredths: bigint): string {
  const digits = hundredths.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
