import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { remindInstallments } from '../../src/invoicing/schedules/plan-reminders.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { createParty, eventsOf, type Json } from './ops-support.ts';
import { createPlan, sentInvoice } from './schedules-support.ts';

/**
 * A due-soon reminder racing a reschedule that deletes its installment, on PostgreSQL (SQLite
 * serializes writers, so the race cannot happen there): the deletion is held open in another
 * connection while the reminder job runs; once it commits, the job must find nothing to remind.
 */
const skip = DIALECTS.includes('postgres') ? false : 'needs PostgreSQL (TEST_DIALECTS)';

describe('installment reminders racing a deletion (postgres)', { skip }, () => {
  let app: TestApp;
  let admin: Caller;
  before(async () => {
    app = await startTestApp('postgres');
    admin = await createCaller(app);
  });
  after(() => app.close());

  it('never reminds an installment deleted by a transaction that commits meanwhile', async () => {
    app.clock.set('2026-05-01T12:00:00Z');
    const party = await createParty(app, admin);
    const invoice = await sentInvoice(app, admin, party.id, {
      issueDate: '2026-05-01',
      dueDate: '2026-06-30',
    });
    const plan = (
      await createPlan(app, admin, {
        invoiceId: invoice.id,
        equal: { count: 2, firstDueDate: '2026-05-02', interval: { kind: 'monthly' } },
      })
    ).data as Json;
    const [first] = (plan.installments as Json[]).map((i) => String(i.id));
    const other = new pg.Client({ connectionString: app.database.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('DELETE FROM payment_plan_installments WHERE id = $1', [first]);
      const job = remindInstallments(app.services);
      // Give the job time to reach the installment and wait on its lock.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await other.query('COMMIT');
      await job;
    } finally {
      await other.end();
    }
    const reminded = (await eventsOf(app, String(first))).filter((e) => e.type === 'installment.due_soon');
    assert.deepEqual(reminded, []);
    const notices = await app.services.db.kysely
      .selectFrom('invoicing_notices')
      .select('id')
      .where('target_id', '=', String(first))
      .execute();
    assert.deepEqual(notices, []);
  });
});
