import { sql } from 'kysely';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';

/** `INV-000001`; six digits keep numbers sortable up to a million, wider after that. */
export function formatInvoiceNumber(value: number): string {
  return `INV-${String(value).padStart(6, '0')}`;
}

/**
 * Takes the organization's next number inside the caller's transaction. The upsert locks the
 * sequence row until commit (PostgreSQL row lock; SQLite runs one writer at a time), so
 * concurrent sends are serialized and a rolled-back send gives its number back: no gaps.
 */
export async function nextInvoiceNumber(unit: UnitOfWork): Promise<string> {
  const row = await unit.db
    .insertInto('invoice_number_sequences')
    .values({ organization_id: unit.organizationId, last_value: 1 })
    .onConflict((conflict) =>
      conflict
        .column('organization_id')
        .doUpdateSet({ last_value: sql<number>`invoice_number_sequences.last_value + 1` }),
    )
    .returning('last_value')
    .executeTakeFirstOrThrow();
  return formatInvoiceNumber(Number(row.last_value));
}
