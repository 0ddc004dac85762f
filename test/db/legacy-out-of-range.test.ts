import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cardAccount, cardTransaction, paypalReceipt } from '../operations/matching/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';

/**
 * Issue 27: rows stored before the ranges existed (an old release took year 0001 and 18-digit
 * amounts). Such a row is put in place with SQL beside healthy ones; every list and get that shows
 * it, and every job, keeps working for it and for the others (docs/decisions.md 400).
 */

const LISTS: Array<[string, Record<string, unknown>]> = [
  ['transactions.list', { limit: 100 }],
  ['transactions.list', { from: '1900-01-01', to: '2999-12-31', limit: 100 }],
  ['entries.list', { limit: 100 }],
  ['entries.list', { from: '1900-01-01', to: '2999-12-31', limit: 100 }],
  ['accounts.list', { limit: 100 }],
  ['inbox.list', { limit: 100 }],
  ['attention.mine', { limit: 100 }],
  ['matching.suggestions.list', { limit: 100 }],
];

for (const dialect of DIALECTS) {
  describe(`rows stored before the ranges existed (${dialect})`, () => {
    let app: TestApp;
    let caller: Caller;
    let other: Caller;
    const legacy: Record<string, string> = {};
    before(async () => {
      app = await startTestApp(dialect);
      caller = await createCaller(app);
      other = await createCaller(app);
      for (const who of [caller, other]) {
        const card = await cardAccount(app, who);
        await paypalReceipt(app, who, `PP-legacy-${who.organizationId}`);
        await cardTransaction(app, who, card, '2026-03-03', '-4990', 'PAYPAL *SPOTIFY');
        if (who !== caller) continue;
        // Three transactions an old release took: year 0001, year 9999, and 18-digit amounts
        // whose sum is beyond any 64-bit integer.
        const db = app.database.db.kysely;
        for (const [name, date, amount] of [
          ['ancient', '0001-01-01', '-999999999999999999'],
          ['far', '9999-12-31', '-999999999999999999'],
          ['huge', '2026-03-04', '-999999999999999999'],
        ] as const) {
          const made = await cardTransaction(app, who, card, '2026-03-03', '-100', `LEGACY ${name}`);
          legacy[name] = made.id;
          await db
            .updateTable('bank_transactions')
            .set({ booked_date: date, amount_minor: amount, match_scanned_at: null })
            .where('id', '=', made.id)
            .execute();
          await db
            .updateTable('ledger_entries')
            .set({ entry_date: date, amount_minor: amount })
            .where('id', '=', made.entry_id)
            .execute();
          await db
            .updateTable('ledger_allocations')
            .set({ amount_minor: amount, tax_minor: '0' })
            .where('entry_id', '=', made.entry_id)
            .execute();
        }
        await db
          .updateTable('receipts')
          .set({ document_date: '0001-01-05', total_minor: '999999999999999999' })
          .where('organization_id', '=', who.organizationId)
          .execute();
      }
    });
    after(() => app?.close());

    it('every list that shows them answers, for their organization and the other', async () => {
      for (const who of [caller, other]) {
        for (const [operation, input] of LISTS) {
          for (const method of ['POST', 'GET'] as const) {
            const res = await call(app.baseUrl, operation, input, { token: who.token, method });
            assert.equal(
              res.status,
              200,
              `${operation} ${method} -> ${res.status} ${JSON.stringify(res.body)}`,
            );
          }
        }
      }
    });

    it('each one can be read by itself', async () => {
      for (const id of Object.values(legacy)) {
        const res = await call(app.baseUrl, 'transactions.get', { id }, { token: caller.token });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
    });

    it('every job runs, an export over them finishes, and none is left failing', async () => {
      const exported = await call(
        app.baseUrl,
        'entries.export',
        { from: '1900-01-01', to: '2999-12-31' },
        { token: caller.token },
      );
      assert.equal(exported.status, 200, JSON.stringify(exported.body));
      const jobId = (exported.data as { job: { id: string } }).job.id;
      await app.runJobs();
      app.clock.advance(60 * 60_000);
      await app.runJobs();
      const job = await call(app.baseUrl, 'entries.exports.get', { id: jobId }, { token: caller.token });
      assert.equal(job.status, 200, JSON.stringify(job.body));
      const state = (job.data as { state: string; error: unknown }).state;
      assert.equal(state, 'succeeded', JSON.stringify(job.data));
      const metric = await app.services.metrics.registry.getSingleMetricAsString(
        'accounting_job_failures_total',
      );
      const counted = metric.split('\n').filter((line) => line.startsWith('accounting_job_failures_total{'));
      // The matching scan sets the three aside before trying (decision 400): none threw.
      assert.deepEqual(counted, [
        'accounting_job_failures_total{job="receipts.match.transactions",outcome="out_of_range"} 3',
      ]);
      const unscanned = await app.database.db.kysely
        .selectFrom('bank_transactions')
        .select('id')
        .where('match_scanned_at', 'is', null)
        .execute();
      assert.deepEqual(unscanned, [], 'the matching scan went past every row');
    });
  });
}
