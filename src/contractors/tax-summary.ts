import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { asBool, asMinor } from '../db/values.ts';
import { taxFinding } from './tax-rules.ts';

export interface TaxSummaryItem {
  contractor_id: string;
  display_name: string;
  legal_name: string;
  residency: string | null;
  services_in_canada: boolean | null;
  /** Null until the profile is reviewed (unknown is not "not confirmed"), as on the contractor. */
  identity_confirmed: boolean | null;
  currency: string;
  fees_paid_minor: string;
  payout_count: number;
  slips: Array<{ form: string; box: string | null; basis: string }>;
  withholding_minor: string | null;
  notes: string[];
}

/**
 * Fees paid per contractor and currency in the calendar year, cash basis: payouts marked paid
 * with `paid_on` in the year, whatever period they cover; unpaid payouts count for nothing.
 */
export async function taxSummary(
  db: Kysely<Database>,
  organizationId: string,
  year: number,
): Promise<TaxSummaryItem[]> {
  const rows = await db
    .selectFrom('contractor_payments as p')
    .innerJoin('contractors as c', (join) =>
      join.onRef('c.id', '=', 'p.contractor_id').onRef('c.organization_id', '=', 'p.organization_id'),
    )
    .select([
      'c.id',
      'c.display_name',
      'c.legal_name',
      'c.tax_residency',
      'c.tax_services_in_canada',
      'c.tax_identity_confirmed',
      'c.tax_reviewed_at',
      'p.currency',
    ])
    .select((eb) => [
      eb.fn.sum<string | number>('p.amount_minor').as('fees'),
      eb.fn.countAll<string | number>().as('n'),
    ])
    .where('p.organization_id', '=', organizationId)
    .where('p.status', '=', 'paid')
    .where('p.paid_on', '>=', `${year}-01-01`)
    .where('p.paid_on', '<=', `${year}-12-31`)
    .groupBy([
      'c.id',
      'c.display_name',
      'c.legal_name',
      'c.tax_residency',
      'c.tax_services_in_canada',
      'c.tax_identity_confirmed',
      'c.tax_reviewed_at',
      'p.currency',
    ])
    .orderBy('c.legal_name')
    .orderBy('c.id')
    .orderBy('p.currency')
    .execute();
  return rows.map((row) => {
    const fees = asMinor(row.fees);
    const servicesInCanada = row.tax_services_in_canada === null ? null : asBool(row.tax_services_in_canada);
    const finding = taxFinding(
      { residency: row.tax_residency, servicesInCanada, reviewed: row.tax_reviewed_at !== null },
      year,
      row.currency,
      fees,
    );
    return {
      contractor_id: row.id,
      display_name: row.display_name,
      legal_name: row.legal_name,
      residency: row.tax_residency,
      services_in_canada: servicesInCanada,
      identity_confirmed: row.tax_reviewed_at === null ? null : asBool(row.tax_identity_confirmed),
      currency: row.currency,
      fees_paid_minor: fees.toString(),
      payout_count: Number(row.n),
      slips: finding.slips,
      withholding_minor: finding.withholdingMinor === null ? null : finding.withholdingMinor.toString(),
      notes: finding.notes,
    };
  });
}

/** A CSV field: quoted when needed; a leading = + - @ is prefixed with ' so spreadsheets show text. */
function field(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function taxSummaryCsv(year: number, items: readonly TaxSummaryItem[]): string {
  const header = [
    'year',
    'contractor_id',
    'legal_name',
    'residency',
    'services_in_canada',
    'currency',
    'fees_paid_minor',
    'payout_count',
    'slips',
    'withholding_minor',
    'notes',
  ];
  const lines = items.map((i) =>
    [
      String(year),
      i.contractor_id,
      i.legal_name,
      i.residency ?? '',
      i.services_in_canada === null ? '' : String(i.services_in_canada),
      i.currency,
      i.fees_paid_minor,
      String(i.payout_count),
      i.slips.map((s) => (s.box === null ? s.form : `${s.form} box ${s.box}`)).join('; '),
      i.withholding_minor ?? '',
      i.notes.join('; '),
    ]
      .map(field)
      .join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}
