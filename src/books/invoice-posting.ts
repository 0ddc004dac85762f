import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import { categoryIds, RECEIVABLE, SALES } from './categories.ts';

/** The sales tax liability in the default chart. */
const SALES_TAX = '2100';

interface Line {
  code: string;
  amountMinor: bigint;
  taxRate?: string;
  taxMinor?: bigint;
}

async function post(
  db: Kysely<Database>,
  organizationId: string,
  entry: {
    sourceType: 'invoice' | 'invoice_payment' | 'invoice_void';
    sourceId: string;
    date: string;
    description: string;
    counterparty: string | null;
    amountMinor: bigint;
    currency: string;
    lines: readonly Line[];
  },
  now: string,
): Promise<void> {
  const codes = new Set([SALES, SALES_TAX, RECEIVABLE, ...entry.lines.map((line) => line.code)]);
  const categories = await categoryIds(db, organizationId, [...codes], now);
  const id = newId();
  await db
    .insertInto('ledger_entries')
    .values({
      id,
      organization_id: organizationId,
      entry_date: entry.date,
      description: entry.description,
      counterparty: entry.counterparty,
      amount_minor: entry.amountMinor.toString(),
      currency: entry.currency,
      review_status: 'unreviewed',
      source_type: entry.sourceType,
      source_id: entry.sourceId,
      revision: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const lines = entry.lines.filter((line, index) => line.amountMinor !== 0n || index === 0);
  await db
    .insertInto('ledger_allocations')
    .values(
      lines.map((line, position) => {
        const category = categories.get(line.code);
        if (category === undefined) throw new Error(`the chart has no category ${line.code}`);
        return {
          id: newId(),
          organization_id: organizationId,
          entry_id: id,
          position,
          category_id: category,
          amount_minor: line.amountMinor.toString(),
          tax_rate: line.taxRate ?? '0',
          tax_minor: (line.taxMinor ?? 0n).toString(),
        };
      }),
    )
    .execute();
}

/**
 * A sent invoice posts an entry of its total on its issue date: the subtotal to 4000 Sales and the
 * tax to 2100 Sales tax payable (docs/books.md). Its allocations sum to the total.
 */
export async function postInvoiceEntry(
  db: Kysely<Database>,
  organizationId: string,
  invoice: {
    id: string;
    number: string;
    issueDate: string;
    partyName: string;
    currency: string;
    subtotalMinor: bigint;
    taxMinor: bigint;
    totalMinor: bigint;
  },
  now: string,
): Promise<void> {
  await post(
    db,
    organizationId,
    {
      sourceType: 'invoice',
      sourceId: invoice.id,
      date: invoice.issueDate,
      description: `Invoice ${invoice.number}`,
      counterparty: invoice.partyName,
      amountMinor: invoice.totalMinor,
      currency: invoice.currency,
      lines: [
        { code: SALES, amountMinor: invoice.totalMinor - invoice.taxMinor },
        { code: SALES_TAX, amountMinor: invoice.taxMinor },
      ],
    },
    now,
  );
}

/**
 * A recorded payment posts an entry of its amount on its date, allocated to 1200 Accounts
 * receivable: the money the invoice's entry recognised has come in. The bank line of the same
 * money posts its own entry; reviewing it means allocating it to 1200 as well.
 */
export async function postPaymentEntry(
  db: Kysely<Database>,
  organizationId: string,
  payment: {
    id: string;
    invoiceNumber: string | null;
    paidOn: string;
    partyName: string | null;
    currency: string;
    amountMinor: bigint;
  },
  now: string,
): Promise<void> {
  await post(
    db,
    organizationId,
    {
      sourceType: 'invoice_payment',
      sourceId: payment.id,
      date: payment.paidOn,
      description: `Payment of invoice ${payment.invoiceNumber ?? ''}`.trim(),
      counterparty: payment.partyName,
      amountMinor: payment.amountMinor,
      currency: payment.currency,
      lines: [{ code: RECEIVABLE, amountMinor: payment.amountMinor }],
    },
    now,
  );
}

/**
 * Voiding a sent invoice posts the mirror of its entry on the void date: the same allocations
 * negated, so Sales and Sales tax payable net to zero for it while both entries stay in the
 * history (an entry is never deleted or rewritten, as in any ledger). An invoice voided while a
 * draft posted nothing and reverses nothing.
 */
export async function postInvoiceVoidEntry(
  db: Kysely<Database>,
  organizationId: string,
  invoice: { id: string; number: string | null; voidDate: string },
  now: string,
): Promise<boolean> {
  const original = await db
    .selectFrom('ledger_entries')
    .select(['id', 'counterparty', 'amount_minor', 'currency'])
    .where('organization_id', '=', organizationId)
    .where('source_type', '=', 'invoice')
    .where('source_id', '=', invoice.id)
    .executeTakeFirst();
  if (!original) return false;
  const allocations = await db
    .selectFrom('ledger_allocations as a')
    .innerJoin('books_categories as c', 'c.id', 'a.category_id')
    .select(['c.code', 'a.amount_minor', 'a.tax_rate', 'a.tax_minor'])
    .where('a.entry_id', '=', original.id)
    .orderBy('a.position')
    .execute();
  await post(
    db,
    organizationId,
    {
      sourceType: 'invoice_void',
      sourceId: invoice.id,
      date: invoice.voidDate,
      description: `Void of invoice ${invoice.number ?? ''}`.trim(),
      counterparty: original.counterparty,
      amountMinor: -BigInt(original.amount_minor),
      currency: original.currency,
      lines: allocations.map((a) => ({
        code: a.code,
        amountMinor: -BigInt(a.amount_minor),
        taxRate: String(a.tax_rate),
        taxMinor: -BigInt(a.tax_minor),
      })),
    },
    now,
  );
  return true;
}
