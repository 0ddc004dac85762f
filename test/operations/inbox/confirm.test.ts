import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { einvoiceFixture } from '../../receipts/extraction/einvoice-fixtures.ts';
import { createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';
import { undatedSlip } from '../../support/receipts.ts';
import { uploadAndProcess } from '../receipts/helpers.ts';

for (const dialect of DIALECTS) {
  describe(`inbox.confirm (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    const entryOf = async (app: TestApp, id: string) =>
      app.services.db.kysely
        .selectFrom('ledger_entries')
        .select(['id', 'amount_minor', 'entry_date', 'currency'])
        .where('source_type', '=', 'receipt')
        .where('source_id', '=', id)
        .execute();

    it('a read that needs review posts nothing until a person confirms it; then it is ready with its entry', async () => {
      const caller = await createCaller(app, { role: 'finance' });
      // A slip with a total but no date: read, but it needs review.
      const item = await uploadAndProcess(app, caller, await undatedSlip(), 'lunch.pdf', 'application/pdf');
      assert.equal(item.state, 'needs_review');
      assert.equal(item.total_minor, '2380', JSON.stringify(item));
      assert.equal(item.entry_id, null);
      assert.deepEqual(await entryOf(app, item.id), []);

      const incomplete = await call(
        app.baseUrl,
        'inbox.confirm',
        { id: item.id, expectedRevision: item.revision, merchant: 'Corner Bistro' },
        { token: caller.token },
      );
      assertError(incomplete, 400, 'invalid_input');
      assert.equal(incomplete.error.field, 'date');
      const stale = await call(
        app.baseUrl,
        'inbox.confirm',
        {
          id: item.id,
          expectedRevision: item.revision + 5,
          date: '2026-03-14',
          totalMinor: '2380',
          currency: 'EUR',
        },
        { token: caller.token },
      );
      assertError(stale, 409, 'revision_conflict');

      const confirmed = await call(
        app.baseUrl,
        'inbox.confirm',
        {
          id: item.id,
          expectedRevision: item.revision,
          merchant: 'Corner Bistro',
          date: '2026-03-14',
          totalMinor: '2380',
          currency: 'EUR',
        },
        { token: caller.token },
      );
      assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
      const data = confirmed.data as Record<string, unknown>;
      assert.equal(data.state, 'ready');
      assert.deepEqual(data.review_reasons, []);
      assert.deepEqual(
        [data.merchant, data.date, data.total_minor, data.currency],
        ['Corner Bistro', '2026-03-14', '2380', 'EUR'],
      );
      const entries = await entryOf(app, item.id);
      assert.equal(entries.length, 1);
      assert.equal(String(entries[0]?.amount_minor), '-2380');
      assert.equal(data.entry_id, entries[0]?.id);
      const audit = await app.services.db.kysely
        .selectFrom('audit_log')
        .select('operation')
        .where('record_id', '=', item.id)
        .where('operation', '=', 'inbox.confirm')
        .execute();
      assert.equal(audit.length, 1);
    });

    it('correcting a ready receipt posts its entry again with the corrected total', async () => {
      const caller = await createCaller(app, { role: 'admin' });
      const item = await uploadAndProcess(
        app,
        caller,
        einvoiceFixture('ubl-invoice.xml'),
        'k.xml',
        'application/xml',
      );
      assert.equal(item.state, 'ready');
      const before = await entryOf(app, item.id);
      assert.equal(String(before[0]?.amount_minor), '-25033');
      const fixed = await call(
        app.baseUrl,
        'inbox.confirm',
        { id: item.id, expectedRevision: item.revision, totalMinor: '25000' },
        { token: caller.token },
      );
      assert.equal(fixed.status, 200, JSON.stringify(fixed.body));
      const after = await entryOf(app, item.id);
      assert.equal(after.length, 1);
      assert.equal(String(after[0]?.amount_minor), '-25000');
      assert.notEqual(after[0]?.id, before[0]?.id);
      const sums = await app.services.db.kysely
        .selectFrom('ledger_allocations')
        .select('amount_minor')
        .where('entry_id', '=', String(after[0]?.id))
        .execute();
      assert.equal(
        sums.reduce((s, r) => s + BigInt(r.amount_minor), 0n),
        -25000n,
      );
    });
  });
}
