import assert from 'node:assert/strict';
import type { DialectName } from '../../../src/db/database.ts';
import { asJson } from '../../../src/db/values.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { auditRows } from '../../support/audit.ts';
import { type ApiResponse, call } from '../../support/http.ts';

let sequence = 0;

/** A contractor made through the API (so every row is what contractors.create writes). */
export async function makeContractor(
  app: TestApp,
  caller: Caller,
  overrides: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { id: string; revision: number }> {
  sequence += 1;
  const res = await call(
    app.baseUrl,
    'contractors.create',
    {
      displayName: `Contractor ${sequence}`,
      legalName: `Contractor ${sequence} Legal`,
      email: `contractor-${sequence}-${Math.random().toString(36).slice(2)}@example.com`,
      ...overrides,
    },
    { token: caller.token },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.data as Record<string, unknown> & { id: string; revision: number };
}

/** A job role made through the API. */
export async function makeRole(
  app: TestApp,
  caller: Caller,
  overrides: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { id: string; revision: number }> {
  sequence += 1;
  const res = await call(
    app.baseUrl,
    'contractorOps.roles.save',
    {
      name: `Role ${sequence}`,
      hourlyRateMinor: '5000',
      currency: 'CAD',
      payCadence: 'biweekly',
      ...overrides,
    },
    { token: caller.token },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.data as Record<string, unknown> & { id: string; revision: number };
}

/** `operation` called as `who`, asserting success: the data of the answer. */
export async function ok(app: TestApp, who: Caller, operation: string, input: Record<string, unknown>) {
  const res = await call(app.baseUrl, operation, input, { token: who.token });
  assert.equal(res.status, 200, `${operation}: ${JSON.stringify(res.body)}`);
  return res.data as Record<string, unknown> & { id: string; revision: number };
}

/** Gives the contractor a role (CAD 50.00 an hour, biweekly) unless they have one. */
export async function ensureRole(app: TestApp, who: Caller, contractorId: string): Promise<void> {
  const c = await ok(app, who, 'contractors.get', { id: contractorId });
  if (c.job_role_id) return;
  const role = await makeRole(app, who);
  await ok(app, who, 'contractorOps.roles.assign', {
    contractorId,
    expectedRevision: c.revision,
    jobRoleId: role.id,
  });
}

/**
 * Owed work made through the operations (never seeded rows): hours submitted on `workDate`, then
 * approved, then (for `paid`) paid by a payout of their biweekly period marked paid.
 */
export async function hoursIn(
  app: TestApp,
  who: Caller,
  contractorId: string,
  hours: string,
  state: 'submitted' | 'approved' | 'rejected' | 'paid',
  workDate = '2026-09-21',
) {
  await ensureRole(app, who, contractorId);
  let h = await ok(app, who, 'contractors.hours.submit', {
    contractorId,
    workDate,
    hours,
    description: 'Work',
  });
  if (state === 'rejected') {
    return ok(app, who, 'contractors.hours.reject', { id: h.id, expectedRevision: 1, reason: 'No' });
  }
  if (state !== 'submitted')
    h = await ok(app, who, 'contractors.hours.approve', { id: h.id, expectedRevision: 1 });
  if (state === 'paid') {
    const payout = await ok(app, who, 'contractors.payouts.create', { contractorId, periodEnd: workDate });
    await ok(app, who, 'contractors.payouts.markPaid', {
      id: payout.id,
      expectedRevision: 1,
      paidOn: workDate,
      reference: 'T-1',
    });
  }
  return h;
}

/** A payout of a fixed amount (`amountMinor`), unpaid or marked paid on `paidOn`. */
export async function fixedPayout(
  app: TestApp,
  who: Caller,
  contractorId: string,
  options: { amountMinor?: string; paidOn?: string; periodEnd?: string } = {},
) {
  await ensureRole(app, who, contractorId);
  const payout = await ok(app, who, 'contractors.payouts.create', {
    contractorId,
    periodEnd: options.periodEnd ?? options.paidOn ?? '2026-09-30',
    fixedAmounts: [{ description: 'Fee', amountMinor: options.amountMinor ?? '125000' }],
  });
  if (options.paidOn === undefined) return payout;
  return ok(app, who, 'contractors.payouts.markPaid', {
    id: payout.id,
    expectedRevision: payout.revision,
    paidOn: options.paidOn,
    reference: 'T-2',
  });
}

export async function eventsFor(app: TestApp, subjectId: string, type?: string) {
  let query = app.services.db.kysely
    .selectFrom('events')
    .selectAll()
    .where('subject_id', '=', subjectId)
    .orderBy('created_at')
    .orderBy('id');
  if (type) query = query.where('type', '=', type);
  const rows = await query.execute();
  return rows.map((row) => ({ type: row.type, data: asJson<Record<string, unknown>>(row.data) }));
}

export async function auditFor(app: TestApp, recordId: string) {
  const rows = await auditRows(app, { recordId }, { orderBy: ['created_at', 'id'] });
  return rows.map((row) => ({
    operation: row.operation,
    before: row.before_revision,
    after: row.after_revision,
    actor: row.actor_id,
  }));
}

/** Asserts a refusal by status and code (and field when given), printing the body on failure. */
export function assertError(res: ApiResponse, status: number, code: string, field?: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.error.code, code);
  if (field !== undefined) assert.equal(res.error.field, field);
}

export const OTHER_ID = '01927f3e-6a1c-7b2d-8e4f-0123456789ab';

/** The app of one test file, with an administrator and a finance member of one organization. */
export async function startWithMembers(
  dialect: DialectName,
): Promise<{ app: TestApp; admin: Caller; finance: Caller }> {
  const app = await startTestApp(dialect);
  const admin = await createCaller(app);
  const finance = await createCaller(app, { role: 'finance', organizationId: admin.organizationId });
  return { app, admin, finance };
}

/**
 * `(caller, input, key?)` calling one operation; without `key` the harness makes a fresh one.
 * The app is read at call time: tests define these before their `before` hook has run.
 */
export function caller(app: () => TestApp, operation: string) {
  return (who: Caller, input: Record<string, unknown>, key?: string) =>
    call(app().baseUrl, operation, input, { token: who.token, ...(key ? { idempotencyKey: key } : {}) });
}

/** The stored contractor row, read straight from the database. */
export function storedContractor(app: TestApp, id: string) {
  return app.services.db.kysely
    .selectFrom('contractors')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/**
 * Signs as the contractor through the signing domain in its own unit of work, as the portal does
 * (members cannot sign: there is no operation for it).
 */
export async function signAs(
  app: TestApp,
  organizationId: string,
  contractorId: string,
  agreement: { id: string; document_sha256?: unknown },
  fullName = 'Ada Lovelace',
) {
  const { signAsContractor } = await import('../../../src/contractors/agreements.ts');
  return signAsContractor(
    app.services,
    { organizationId, actor: { type: 'contractor', contractorId }, operation: 'portal.agreements.sign' },
    contractorId,
    agreement.id,
    {
      fullName,
      consent: true,
      clientAddress: '127.0.0.1',
      userAgent: 'test',
      documentSha256: String(agreement.document_sha256),
    },
  );
}
