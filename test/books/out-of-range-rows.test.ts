import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { cardAccount, cardTransaction } from '../operations/matching/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';

/**
 * Rows written before the service had one date range (an older release, a restore, a hand edit)
 * may hold dates outside 1900-01-01..2999-12-31. They are put there with SQL here; lists, reads,
 * exports and the matching job must still answer, and the other rows of the organization (and of
 * another organization) keep being processed.
 */
for (const dialect of DIALECTS) {
  describe(`rows stored outside the date range (${dialect})`, () => {
    let app: TestApp;
    let owner: Caller;
    let other: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      owner = await createCaller(app, { role: 'finance' });
      other = await createCaller(app, { role: 'finance' });
    });
    after(() => app.close());

    it('lists, reads, exports and matches around a transaction dated 0001-01-01', async () => {
      const card = await cardAccount(app, owner);
      const old = await cardTransaction(app, owner, card, '2026-03-01', '-1200', 'OLD ROW');
      const healthy = await cardTransaction(app, owner, card, '2026-03-02', '-3400', 'FRESH ROW');
      const otherCard = await cardAccount(app, other);
      const elsewhere = await cardTransaction(app, other, otherCard, '2026-03-03', '-5600', 'OTHER ORG');
      const db = app.services.db.kysely;
      await sql`update bank_transactions set booked_date = ${'0001-01-01'} where id = ${old.id}`.execute(db);
      await sql`update ledger_entries set entry_date = ${'0001-01-01'} where id = ${old.entry_id}`.execute(
        db,
      );

      const list = await call(app.baseUrl, 'transactions.list', { limit: 50 }, { token: owner.token });
      assert.equal(list.status, 200, JSON.stringify(list.body));
      const ids = (list.data as { items: { id: string }[] }).items.map((t) => t.id);
      assert.ok(ids.includes(healthy.id) && ids.includes(old.id), 'both rows are listed');
      const get = await call(app.baseUrl, 'transactions.get', { id: old.id }, { token: owner.token });
      assert.equal(get.status, 200, JSON.stringify(get.body));
      assert.equal(
        (get.data as { booked_date: string }).booked_date,
        '0001-01-01',
        'shown as stored, not hidden',
      );
      for (const operation of ['entries.list', 'attention.mine']) {
        const res = await call(app.baseUrl, operation, { limit: 50 }, { token: owner.token });
        assert.equal(res.status, 200, `${operation}: ${JSON.stringify(res.body)}`);
      }
      const ranged = await call(
        app.baseUrl,
        'entries.list',
        { from: '1900-01-01', to: '2999-12-31', limit: 50 },
        { token: owner.token },
      );
      assert.equal(ranged.status, 200);
      assert.ok(
        !(ranged.data as { items: { id: string }[] }).items.some((e) => e.id === old.entry_id),
        'a range query leaves the stored row out: its date is before the range',
      );

      const exported = await call(
        app.baseUrl,
        'entries.export',
        { from: '1900-01-01', to: '2999-12-31', idempotencyKey: `export-${dialect}` },
        { token: owner.token },
      );
      assert.equal(exported.status, 200, JSON.stringify(exported.body));
      await app.runJobs();
      await app.runJobs();
      const jobs = await db
        .selectFrom('books_jobs')
        .select(['kind', 'state', 'error_code'])
        .where('organization_id', '=', owner.organizationId)
        .execute();
      assert.deepEqual(
        jobs.map((j) => [j.kind, j.state]),
        [['entries_export', 'succeeded']],
        JSON.stringify(jobs),
      );
      // The matching scan went past the odd row: every other transaction, in both organizations, was scanned.
      const unscanned = await db
        .selectFrom('bank_transactions')
        .select('id')
        .where('id', 'in', [healthy.id, elsewhere.id])
        .where('match_scanned_at', 'is', null)
        .execute();
      assert.deepEqual(unscanned, []);
    });
  });
}
