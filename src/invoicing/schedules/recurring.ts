import { AppError, notFound } from '../../contract/errors.ts';
import { asBool, dbBool, dbJson } from '../../db/values.ts';
import { newId } from '../../lib/ids.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { type Schedule, type ScheduleEnd, validateSchedule } from '../cadence.ts';
import { isValidTimeZone, localDateIn } from '../calendar.ts';
import { domain } from '../invoices/errors.ts';
import { computeDraftLines, loadOrganization, loadParty } from '../invoices/index.ts';
import { recordChange } from './lifecycle.ts';
import type { ScheduleRow, StoredTemplate } from './records.ts';
import { updateSchedule } from './repository.ts';
import { nextRunFrom } from './timing.ts';
import {
  type CadenceInput,
  type EndInput,
  normalizeCadence,
  normalizeEnd,
  type StoredCadence,
  type TemplateLineInput,
  toDomainCadence,
} from './wire.ts';

export interface RecurringInput {
  name?: string | undefined;
  partyId: string;
  currency: string;
  lines: TemplateLineInput[];
  paymentTermsDays: number;
  notes?: string | null | undefined;
  cadence: CadenceInput;
  startDate: string;
  end: EndInput;
  autoSend: boolean;
  timeZone?: string | undefined;
}

function invalid(field: string, message: string): AppError {
  return new AppError('invalid_input', message, { field });
}

export function checkTimeZone(timeZone: string, field = 'timeZone'): string {
  if (!isValidTimeZone(timeZone)) throw invalid(field, `${field} is not a known IANA time zone.`);
  return timeZone;
}

/** Validates cadence, start and end together (the end must not precede the start). */
function buildSchedule(cadence: StoredCadence, startDate: string, end: ScheduleEnd): Schedule {
  return domain(() => validateSchedule({ cadence: toDomainCadence(cadence), startDate, end }));
}

function buildTemplate(input: Pick<RecurringInput, 'currency' | 'lines' | 'paymentTermsDays' | 'notes'>) {
  // The same checks and totals as an invoice draft, so a template that saves also invoices.
  computeDraftLines(input.currency, input.lines);
  const template: StoredTemplate = {
    lines: input.lines.map((line) => ({ ...line })),
    paymentTermsDays: input.paymentTermsDays,
    notes: input.notes ?? null,
  };
  return template;
}

/**
 * The first run is the first slot on or after today (in the schedule's zone) and the start date:
 * a start date in the past does not back-fill the slots before today.
 */
export async function createRecurringSchedule(unit: UnitOfWork, input: RecurringInput): Promise<ScheduleRow> {
  const party = await loadParty(unit.db, unit.organizationId, input.partyId);
  if (!party) throw notFound('Party', 'partyId');
  const template = buildTemplate(input);
  const cadence = normalizeCadence(input.cadence);
  const end = normalizeEnd(input.end);
  const schedule = buildSchedule(cadence, input.startDate, end);
  const timeZone = checkTimeZone(
    input.timeZone ?? (await loadOrganization(unit.db, unit.organizationId)).timeZone,
  );
  const now = unit.clock.now();
  const today = localDateIn(timeZone, now);
  const first = nextRunFrom(schedule, today, { issuedCount: 0, lastRunDate: null });
  if (first === null) throw invalid('end', 'The schedule ends before its first invoice date.');
  const row = {
    id: newId(),
    organization_id: unit.organizationId,
    kind: 'recurring',
    status: 'active',
    name: input.name ?? `Recurring invoice for ${party.name}`.slice(0, 200),
    party_id: party.id,
    currency: input.currency,
    template: dbJson(template),
    cadence: dbJson(cadence),
    start_date: input.startDate,
    end_condition: dbJson(end),
    auto_send: dbBool(input.autoSend),
    invoice_id: null,
    time_zone: timeZone,
    next_run_date: first.date,
    last_run_date: null,
    occurrences_created: 0,
    active_since: today,
    paused_at: null,
    cancelled_at: null,
    completed_at: null,
    revision: 1,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await unit.db.insertInto('invoice_schedules').values(row).execute();
  await recordChange(unit, null, row, 'invoice.schedule.created');
  return row;
}

export type RecurringPatch = Partial<RecurringInput>;

/**
 * Changes a recurring schedule (active or paused). Template changes apply to invoices made from
 * now on. A change of cadence, start, end or zone recomputes the next run from today, never
 * before the last run, with the invoices already made counting toward after_count.
 */
export async function updateRecurringSchedule(
  unit: UnitOfWork,
  row: ScheduleRow,
  patch: RecurringPatch,
  stored: { template: StoredTemplate; cadence: StoredCadence; end: ScheduleEnd },
): Promise<ScheduleRow> {
  if (patch.partyId !== undefined && !(await loadParty(unit.db, unit.organizationId, patch.partyId))) {
    throw notFound('Party', 'partyId');
  }
  const currency = patch.currency ?? row.currency;
  const template = buildTemplate({
    currency,
    lines: patch.lines ?? stored.template.lines,
    paymentTermsDays: patch.paymentTermsDays ?? stored.template.paymentTermsDays,
    notes: patch.notes === undefined ? stored.template.notes : patch.notes,
  });
  const cadence = patch.cadence ? normalizeCadence(patch.cadence) : stored.cadence;
  const end = patch.end ? normalizeEnd(patch.end) : stored.end;
  const startDate = patch.startDate ?? row.start_date;
  const schedule = buildSchedule(cadence, startDate, end);
  const timeZone = patch.timeZone === undefined ? row.time_zone : checkTimeZone(patch.timeZone);
  const now = unit.clock.now();
  let nextRunDate = row.next_run_date;
  let ended = false;
  if (row.status === 'active') {
    const next = nextRunFrom(schedule, localDateIn(timeZone, now), {
      issuedCount: row.occurrences_created,
      lastRunDate: row.last_run_date,
    });
    nextRunDate = next?.date ?? null;
    ended = next === null;
  }
  const after = await updateSchedule(
    unit.db,
    row,
    {
      name: patch.name ?? row.name,
      party_id: patch.partyId ?? row.party_id,
      currency,
      template: dbJson(template),
      cadence: dbJson(cadence),
      start_date: startDate,
      end_condition: dbJson(end),
      auto_send: dbBool(patch.autoSend ?? asBool(row.auto_send)),
      time_zone: timeZone,
      next_run_date: nextRunDate,
      ...(ended ? { status: 'completed', completed_at: now.toISOString() } : {}),
    },
    now,
  );
  await recordChange(unit, row, after, 'invoice.schedule.updated');
  if (ended) await recordChange(unit, after, after, 'invoice.schedule.completed');
  return after;
}
