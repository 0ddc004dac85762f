import assert from 'node:assert/strict';
import { addDays, compareDates } from '../../src/invoicing/calendar.ts';
import { invoicingJobs } from '../../src/jobs/invoicing-jobs.ts';
import type { Caller, TestApp } from '../support/app.ts';
import { call, freshKey } from '../support/http.ts';
import type { Json } from './ops-support.ts';

/** Shared steps of the schedule, plan and deadline tests. */

export const TEMPLATE_LINES = [
  { description: 'Retainer', quantity: '1', unitAmountMinor: '100000', taxRate: '13' },
];

export async function createSchedule(
  app: TestApp,
  caller: Caller,
  partyId: unknown,
  input: Json = {},
): Promise<Json> {
  const res = await call(
    app.baseUrl,
    'invoices.schedules.create',
    { partyId, currency: 'CAD', lines: TEMPLATE_LINES, ...input },
    { token: caller.token },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.data as Json;
}

export async function getSchedule(app: TestApp, caller: Caller, id: unknown): Promise<Json> {
  const res = await call(app.baseUrl, 'invoices.schedules.get', { id }, { token: caller.token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.data as Json;
}

/** Pause, resume or cancel with the current revision. */
export async function transition(
  app: TestApp,
  caller: Caller,
  verb: 'pause' | 'resume' | 'cancel',
  id: unknown,
): Promise<Json> {
  const { revision } = await getSchedule(app, caller, id);
  const res = await call(
    app.baseUrl,
    `invoices.schedules.${verb}`,
    { id, expectedRevision: revision, idempotencyKey: freshKey() },
    { token: caller.token },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.data as Json;
}

/** Runs the invoicing jobs until idle at `instant`. */
export async function runAt(app: TestApp, instant: string): Promise<void> {
  app.clock.set(instant);
  await app.runJobs(invoicingJobs);
}

/** Every day from `from` to `to` (inclusive) at `time` UTC, the invoicing jobs run until idle. */
export async function everyDay(app: TestApp, from: string, to: string, time = '12:00:00Z'): Promise<void> {
  for (let day = from; compareDates(day, to) <= 0; day = addDays(day, 1)) {
    await runAt(app, `${day}T${time}`);
  }
}

export async function invoicesOf(app: TestApp, scheduleId: unknown) {
  return app.services.db.kysely
    .selectFrom('invoices')
    .select(['id', 'issue_date', 'due_date', 'status', 'schedule_occurrence', 'total_minor', 'number'])
    .where('schedule_id', '=', String(scheduleId))
    .orderBy('schedule_occurrence')
    .execute();
}

export async function issueDates(app: TestApp, scheduleId: unknown): Promise<string[]> {
  return (await invoicesOf(app, scheduleId)).map((row) => row.issue_date);
}

export async function runsOf(app: TestApp, scheduleId: unknown) {
  return app.services.db.kysely
    .selectFrom('schedule_runs')
    .select(['run_date', 'outcome', 'invoice_id', 'error_code'])
    .where('schedule_id', '=', String(scheduleId))
    .orderBy('run_date')
    .execute();
}

export async function eventTypes(app: TestApp, organizationId: string, type: string) {
  const rows = await app.services.db.kysely
    .selectFrom('events')
    .select(['subject_id', 'data'])
    .where('organization_id', '=', organizationId)
    .where('type', '=', type)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    subjectId: row.subject_id,
    data: (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Json,
  }));
}

export async function mailsOf(app: TestApp, organizationId: string, kind: string) {
  const rows = await app.services.db.kysely
    .selectFrom('mail_outbox')
    .select(['recipients', 'subject', 'text_body'])
    .where('organization_id', '=', organizationId)
    .where('kind', '=', kind)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    to: (typeof row.recipients === 'string' ? JSON.parse(row.recipients) : row.recipients) as string[],
    subject: row.subject,
    text: row.text_body,
  }));
}

/** A sent invoice of `party` (issue/due dates and lines overridable). */
export async function sentInvoice(
  app: TestApp,
  caller: Caller,
  partyId: unknown,
  input: Json = {},
): Promise<Json> {
  const draft = await call(
    app.baseUrl,
    'invoices.create',
    {
      partyId,
      currency: 'CAD',
      lines: [{ description: 'Project', quantity: '1', unitAmountMinor: '100000' }],
      ...input,
    },
    { token: caller.token },
  );
  assert.equal(draft.status, 200, JSON.stringify(draft.body));
  const sent = await call(
    app.baseUrl,
    'invoices.send',
    { id: draft.data.id, expectedRevision: draft.data.revision },
    { token: caller.token },
  );
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  return sent.data as Json;
}

/** Records a payment on an invoice with its current revision. */
export async function pay(
  app: TestApp,
  caller: Caller,
  invoiceId: unknown,
  amountMinor: bigint,
  paidOn: string,
) {
  const invoice = await call(app.baseUrl, 'invoices.get', { id: invoiceId }, { token: caller.token });
  const res = await call(
    app.baseUrl,
    'invoices.payments.record',
    {
      invoiceId,
      expectedRevision: invoice.data.revision,
      amountMinor: amountMinor.toString(),
      paidOn,
      method: 'bank_transfer',
    },
    { token: caller.token },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (res.data as { invoice: Json }).invoice;
}

export async function createPlan(app: TestApp, caller: Caller, input: Json) {
  return call(app.baseUrl, 'invoices.paymentPlans.create', input, { token: caller.token });
}
