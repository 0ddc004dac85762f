import type { Updateable } from 'kysely';
import { AppError, notFound, revisionConflict } from '../../contract/errors.ts';
import { MAX_SAFE } from '../../contract/formats.ts';
import type { InvoicesTable } from '../../db/tables/invoicing.ts';
import { newId } from '../../lib/ids.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { addDays, compareDates, type IsoDate, parseIsoDate } from '../calendar.ts';
import { parseCurrency } from '../money.ts';
import { computeInvoiceTotals } from '../totals.ts';
import { domain, invalidState } from './errors.ts';
import { type Invoice, invoiceEventData } from './model.ts';
import { clearSendRefusal } from './notices.ts';
import { loadInvoice, loadParty, organizationToday } from './queries.ts';

export const MAX_LINES = 100;
const MAX_SAFE_MINOR = BigInt(MAX_SAFE);

export interface DraftLineInput {
  description: string;
  /** Decimal string > 0, at most 9 integer and 4 fraction digits. */
  quantity: string;
  /** Minor units: a canonical decimal string ("12345") or a bigint; 0..9007199254740991. */
  unitAmountMinor: string | bigint;
  /** Percentage 0..100 with at most 4 fraction digits; absent or null means untaxed. */
  taxRate?: string | null | undefined;
}

export interface DraftInvoiceInput {
  partyId: string;
  currency: string;
  lines: readonly DraftLineInput[];
  /** Defaults to the organization's today. */
  issueDate?: IsoDate | undefined;
  /** Give exactly one of dueDate and paymentTermsDays (due = issue + terms). */
  dueDate?: IsoDate | undefined;
  paymentTermsDays?: number | undefined;
  /** A draft with this date is sent by the worker on that day (organization's time zone). */
  scheduledSendDate?: IsoDate | null | undefined;
  notes?: string | null | undefined;
  /** Set by the recurring-invoice generator; (scheduleId, scheduleOccurrence) is unique. */
  scheduleId?: string | null | undefined;
  scheduleOccurrence?: number | null | undefined;
}

/** Fields a draft update may change; absent fields keep their value, `lines` replaces all lines. */
export type DraftInvoicePatch = Partial<Omit<DraftInvoiceInput, 'scheduleId' | 'scheduleOccurrence'>>;

function invalid(field: string, message: string): AppError {
  return new AppError('invalid_input', message, { field });
}

function parseUnitAmount(value: string | bigint, field: string): bigint {
  if (typeof value === 'string' && !/^(0|[1-9][0-9]{0,15})$/.test(value)) {
    throw invalid(field, `${field} must be a decimal string of minor units.`);
  }
  const amount = BigInt(value);
  if (amount < 0n || amount > MAX_SAFE_MINOR) throw invalid(field, `${field} must be 0 to ${MAX_SAFE}.`);
  return amount;
}

/** Every computed amount must stay within the wire range (exact on both drivers). */
function checkRange(amount: bigint, field: string): bigint {
  if (amount > MAX_SAFE_MINOR) {
    throw new AppError('amount_overflow', `${field} would exceed ${MAX_SAFE} minor units.`, { field });
  }
  return amount;
}

function resolveDates(
  issueDate: IsoDate,
  dueDate: IsoDate | undefined,
  terms: number | undefined | null,
  scheduledSendDate: IsoDate | null | undefined,
) {
  domain(() => parseIsoDate(issueDate, 'issueDate'));
  if (dueDate !== undefined) domain(() => parseIsoDate(dueDate, 'dueDate'));
  if (scheduledSendDate) domain(() => parseIsoDate(scheduledSendDate, 'scheduledSendDate'));
  if (dueDate !== undefined && terms !== undefined && terms !== null) {
    throw invalid('paymentTermsDays', 'Give dueDate or paymentTermsDays, not both.');
  }
  if (dueDate === undefined && (terms === undefined || terms === null)) {
    throw invalid('dueDate', 'dueDate or paymentTermsDays is required.');
  }
  if (terms !== undefined && terms !== null && (!Number.isInteger(terms) || terms < 0 || terms > 365)) {
    throw invalid('paymentTermsDays', 'paymentTermsDays must be an integer from 0 to 365.');
  }
  const due = dueDate ?? domain(() => addDays(issueDate, terms ?? 0), 'dueDate');
  if (compareDates(due, issueDate) < 0) throw invalid('dueDate', 'dueDate must not be before issueDate.');
  if (scheduledSendDate && compareDates(scheduledSendDate, issueDate) < 0) {
    throw invalid('scheduledSendDate', 'scheduledSendDate must not be before issueDate.');
  }
  if (scheduledSendDate && compareDates(scheduledSendDate, due) > 0) {
    throw invalid('scheduledSendDate', 'scheduledSendDate must not be after the due date.');
  }
  return { issueDate, dueDate: due, paymentTermsDays: dueDate === undefined ? (terms ?? null) : null };
}

/** Validates lines and computes every total on the server (docs/invoicing.md, rounding). */
export function computeDraftLines(currency: string, lines: readonly DraftLineInput[]) {
  domain(() => parseCurrency(currency, 'currency'));
  if (lines.length === 0 || lines.length > MAX_LINES) {
    throw invalid('lines', `lines must hold 1 to ${MAX_LINES} items.`);
  }
  const parsed = lines.map((line, index) => {
    if (line.description.trim() === '') throw invalid(`lines.${index}.description`, 'description is empty.');
    return {
      description: line.description,
      quantity: line.quantity,
      unitAmountMinor: parseUnitAmount(line.unitAmountMinor, `lines.${index}.unitAmountMinor`),
      taxRate: line.taxRate ?? undefined,
    };
  });
  const totals = domain(() => computeInvoiceTotals(parsed));
  const computed = parsed.map((line, index) => {
    const lineTotals = totals.lines[index];
    if (!lineTotals) throw new Error('totals and lines differ in length');
    checkRange(lineTotals.totalMinor, `lines.${index}`);
    return { ...line, ...lineTotals };
  });
  checkRange(totals.totalMinor, 'lines');
  return {
    lines: computed,
    subtotalMinor: totals.subtotalMinor,
    taxMinor: totals.taxMinor,
    totalMinor: totals.totalMinor,
  };
}

async function requireParty(unit: UnitOfWork, partyId: string): Promise<void> {
  if (!(await loadParty(unit.db, unit.organizationId, partyId))) throw notFound('Party', 'partyId');
}

async function writeLines(
  unit: UnitOfWork,
  invoiceId: string,
  lines: ReturnType<typeof computeDraftLines>['lines'],
): Promise<void> {
  await unit.db
    .insertInto('invoice_lines')
    .values(
      lines.map((line, position) => ({
        id: newId(),
        organization_id: unit.organizationId,
        invoice_id: invoiceId,
        position,
        description: line.description,
        quantity: line.quantity,
        unit_amount_minor: line.unitAmountMinor.toString(),
        tax_rate: line.taxRate ?? null,
        subtotal_minor: line.subtotalMinor.toString(),
        tax_minor: line.taxMinor.toString(),
        total_minor: line.totalMinor.toString(),
      })),
    )
    .execute();
}

async function reload(unit: UnitOfWork, invoiceId: string): Promise<Invoice> {
  const invoice = await loadInvoice(unit.db, unit.organizationId, invoiceId);
  if (!invoice) throw new Error(`invoice ${invoiceId} vanished inside its own transaction`);
  return invoice;
}

/** Creates a draft (no number yet), audits it and emits invoice.created. */
export async function createDraftInvoice(unit: UnitOfWork, input: DraftInvoiceInput): Promise<Invoice> {
  await requireParty(unit, input.partyId);
  const computed = computeDraftLines(input.currency, input.lines);
  const issueDate = input.issueDate ?? (await organizationToday(unit.db, unit.organizationId, unit.clock));
  const dates = resolveDates(issueDate, input.dueDate, input.paymentTermsDays, input.scheduledSendDate);
  const now = unit.clock.now().toISOString();
  const id = newId();
  await unit.db
    .insertInto('invoices')
    .values({
      id,
      organization_id: unit.organizationId,
      party_id: input.partyId,
      number: null,
      status: 'draft',
      currency: input.currency,
      issue_date: dates.issueDate,
      due_date: dates.dueDate,
      payment_terms_days: dates.paymentTermsDays,
      scheduled_send_date: input.scheduledSendDate ?? null,
      subtotal_minor: computed.subtotalMinor.toString(),
      tax_minor: computed.taxMinor.toString(),
      total_minor: computed.totalMinor.toString(),
      amount_paid_minor: '0',
      balance_minor: computed.totalMinor.toString(),
      notes: input.notes ?? null,
      billing_snapshot: null,
      schedule_id: input.scheduleId ?? null,
      schedule_occurrence: input.scheduleOccurrence ?? null,
      due_soon_notified_at: null,
      overdue_at: null,
      sent_at: null,
      paid_at: null,
      voided_at: null,
      void_reason: null,
      revision: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await writeLines(unit, id, computed.lines);
  await unit.audit({ recordType: 'invoice', recordId: id, beforeRevision: null, afterRevision: 1 });
  const invoice = await reload(unit, id);
  await unit.emit({
    type: 'invoice.created',
    subject: { type: 'invoice', id },
    data: invoiceEventData(invoice),
  });
  return invoice;
}

/** Changes a draft (compare-and-set on the revision); `lines`, when given, replaces every line. */
export async function updateDraftInvoice(
  unit: UnitOfWork,
  invoiceId: string,
  expectedRevision: number,
  patch: DraftInvoicePatch,
): Promise<Invoice> {
  const current = await loadInvoice(unit.db, unit.organizationId, invoiceId);
  if (!current) throw notFound('Invoice', 'id');
  if (current.revision !== expectedRevision) throw revisionConflict(current.revision);
  if (current.status !== 'draft') throw invalidState(current.status, 'Only draft invoices can be changed.');
  if (patch.partyId !== undefined) await requireParty(unit, patch.partyId);
  const currency = patch.currency ?? current.currency;
  const computed = computeDraftLines(currency, patch.lines ?? current.lines.map(lineInputOf));
  // Due date: an explicit dueDate wins; otherwise terms (given, or kept) follow the issue date.
  const issueDate = patch.issueDate ?? current.issueDate;
  const terms =
    patch.paymentTermsDays ?? (patch.dueDate === undefined ? current.paymentTermsDays : undefined);
  const dueDate = patch.dueDate ?? (terms === null || terms === undefined ? current.dueDate : undefined);
  const scheduledSendDate =
    patch.scheduledSendDate === undefined ? current.scheduledSendDate : patch.scheduledSendDate;
  if (patch.dueDate !== undefined && patch.paymentTermsDays !== undefined) {
    throw invalid('paymentTermsDays', 'Give dueDate or paymentTermsDays, not both.');
  }
  const dates = resolveDates(issueDate, dueDate, terms, scheduledSendDate);
  await updateInvoiceIf(
    unit,
    invoiceId,
    { revision: current.revision, status: 'draft' },
    {
      party_id: patch.partyId ?? current.partyId,
      currency,
      issue_date: dates.issueDate,
      due_date: dates.dueDate,
      payment_terms_days: dates.paymentTermsDays,
      scheduled_send_date: scheduledSendDate ?? null,
      subtotal_minor: computed.subtotalMinor.toString(),
      tax_minor: computed.taxMinor.toString(),
      total_minor: computed.totalMinor.toString(),
      balance_minor: computed.totalMinor.toString(),
      notes: patch.notes === undefined ? current.notes : patch.notes,
      updated_at: unit.clock.now().toISOString(),
    },
  );
  await clearSendRefusal(unit, invoiceId);
  if (patch.lines !== undefined) {
    await unit.db
      .deleteFrom('invoice_lines')
      .where('invoice_id', '=', invoiceId)
      .where('organization_id', '=', unit.organizationId)
      .execute();
    await writeLines(unit, invoiceId, computed.lines);
  }
  await unit.audit({
    recordType: 'invoice',
    recordId: invoiceId,
    beforeRevision: current.revision,
    afterRevision: current.revision + 1,
  });
  const invoice = await reload(unit, invoiceId);
  await unit.emit({
    type: 'invoice.updated',
    subject: { type: 'invoice', id: invoiceId },
    data: invoiceEventData(invoice),
  });
  return invoice;
}

function lineInputOf(line: Invoice['lines'][number]): DraftLineInput {
  return {
    description: line.description,
    quantity: line.quantity,
    unitAmountMinor: line.unitAmountMinor,
    taxRate: line.taxRate,
  };
}

/** After a lost compare-and-set: 409 with the revision the caller should reload. */
/**
 * The invoice compare-and-set: applies `changes` (and revision + 1) only while the invoice is
 * still at the revision and state the caller read; otherwise throws the conflict the caller sees.
 */
export async function updateInvoiceIf(
  unit: UnitOfWork,
  invoiceId: string,
  expected: { revision: number; status: string },
  changes: Updateable<InvoicesTable>,
): Promise<void> {
  const updated = await unit.db
    .updateTable('invoices')
    .set({ ...changes, revision: expected.revision + 1 })
    .where('id', '=', invoiceId)
    .where('organization_id', '=', unit.organizationId)
    .where('revision', '=', expected.revision)
    .where('status', '=', expected.status)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw await conflictFor(unit, invoiceId);
}

export async function conflictFor(unit: UnitOfWork, invoiceId: string): Promise<AppError> {
  const row = await loadInvoice(unit.db, unit.organizationId, invoiceId);
  return row ? revisionConflict(row.revision) : notFound('Invoice', 'id');
}
