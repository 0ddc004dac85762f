import assert from 'node:assert/strict';
import type { DialectName } from '../../../src/db/database.ts';
import { asJson } from '../../../src/db/values.ts';
import { newId } from '../../../src/lib/ids.ts';
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

/** Seeds owed work directly: no operation writes hours or payments yet (see docs/contractors.md). */
export async function seedHours(
  app: TestApp,
  caller: Caller,
  contractorId: string,
  hundredths: number,
  status: 'pending' | 'paid' = 'pending',
): Promise<void> {
  const now = app.clock.now().toISOString();
  await app.services.db.kysely
    .insertInto('contractor_hours')
    .values({
      id: newId(),
      organization_id: caller.organizationId,
      contractor_id: contractorId,
      work_date: now.slice(0, 10),
      hours_hundredths: hundredths,
      status,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function seedPayment(
  app: TestApp,
  caller: Caller,
  contractorId: string,
  status: 'unpaid' | 'paid' = 'unpaid',
): Promise<void> {
  const now = app.clock.now().toISOString();
  await app.services.db.kysely
    .insertInto('contractor_payments')
    .values({
      id: newId(),
      organization_id: caller.organizationId,
      contractor_id: contractorId,
      amount_minor: '125000',
      currency: 'CAD',
      status,
      created_at: now,
      updated_at: now,
    })
    .execute();
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
