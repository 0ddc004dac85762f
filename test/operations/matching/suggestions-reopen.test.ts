import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { matchNewReceipt } from '../../../src/receipts/processing/suggestions.ts';
import { withUnit } from '../../../src/unit/with-unit.ts';
import { einvoiceFixture } from '../../receipts/extraction/einvoice-fixtures.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { auditRows } from '../../support/audit.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';
import { ublReceipt } from '../../support/receipts.ts';
import { uploadAndProcess } from '../receipts/helpers.ts';
import { cardAccount, cardTransaction, suggestions } from './helpers.ts';

// matching.suggestions.reopen: the undo of a decline (decision 391).
// The UBL fixture: Koffiebar Lindeboom, 2015-01-09, EUR 250.33.

type Suggestion = Awaited<ReturnType<typeof suggestions>>[number];

for (const dialect of DIALECTS) {
  describe(`matching.suggestions.reopen (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    /** A receipt with one suggested card charge, declined. */
    async function declinedPair(caller: Caller) {
      const card = await cardAccount(app, caller);
      const tx = await cardTransaction(app, caller, card, '2015-01-10', '-25033', 'KOFFIEBAR LINDEBOOM');
      await app.runJobs();
      const receipt = await uploadAndProcess(
        app,
        caller,
        einvoiceFixture('ubl-invoice.xml'),
        'r.xml',
        'application/xml',
      );
      const [top] = await suggestions(app, caller, { receiptId: receipt.id });
      assert.ok(top);
      assert.equal(top.transaction_id, tx.id);
      const declined = await call(
        app.baseUrl,
        'matching.suggestions.decline',
        { id: top.id, expectedRevision: top.revision },
        { token: caller.token },
      );
      assert.equal(declined.status, 200, JSON.stringify(declined.body));
      return { card, tx, receipt, declined: declined.data as Suggestion };
    }

    const reopen = (caller: Caller, s: { id: string; revision: number }) =>
      call(
        app.baseUrl,
        'matching.suggestions.reopen',
        { id: s.id, expectedRevision: s.revision },
        { token: caller.token },
      );

    it('a declined suggestion is open again, confirmable, audited, and re-matching keeps one row', async () => {
      const caller = await createCaller(app, { role: 'finance' });
      const { tx, receipt, declined } = await declinedPair(caller);
      const reopened = await reopen(caller, declined);
      assert.equal(reopened.status, 200, JSON.stringify(reopened.body));
      const open = reopened.data as Suggestion;
      assert.equal(open.state, 'open');
      assert.equal(open.revision, declined.revision + 1);
      assert.deepEqual(
        (await suggestions(app, caller, { receiptId: receipt.id })).map((s) => s.id),
        [declined.id],
      );
      assert.deepEqual(await suggestions(app, caller, { receiptId: receipt.id, state: 'declined' }), []);
      const audit = await auditRows(app, {
        organizationId: caller.organizationId,
        operation: 'matching.suggestions.reopen',
      });
      assert.equal(audit.length, 1);
      // A re-read suggests the pair again without a second row.
      await withUnit(
        app.services,
        { organizationId: caller.organizationId, actor: { type: 'job', job: 'test' }, operation: 'test' },
        (unit) => matchNewReceipt(unit, receipt.id),
      );
      const again = await suggestions(app, caller, { receiptId: receipt.id });
      assert.deepEqual(
        again.map((s) => s.id),
        [declined.id],
      );
      const confirmed = await call(
        app.baseUrl,
        'matching.suggestions.confirm',
        { id: open.id, expectedRevision: again[0]?.revision ?? open.revision },
        { token: caller.token },
      );
      assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
      assert.equal((confirmed.data as { transaction_id: string }).transaction_id, tx.id);
    });

    it('refuses an open suggestion, a stale revision, and a pair whose transaction was matched meanwhile', async () => {
      const caller = await createCaller(app, { role: 'admin' });
      const { declined } = await declinedPair(caller);
      assertError(
        await reopen(caller, { id: declined.id, revision: declined.revision - 1 }),
        409,
        'revision_conflict',
      );
      const reopened = await reopen(caller, declined);
      assert.equal(reopened.status, 200, JSON.stringify(reopened.body));
      const open = reopened.data as Suggestion;
      assertError(await reopen(caller, open), 409, 'invalid_state');

      // Declined again, then its transaction takes another receipt: reopening would offer a pair
      // that confirm must refuse, so it is refused and nothing changes.
      const declinedAgain = await call(
        app.baseUrl,
        'matching.suggestions.decline',
        { id: open.id, expectedRevision: open.revision },
        { token: caller.token },
      );
      const second = declinedAgain.data as Suggestion;
      const other = await uploadAndProcess(
        app,
        caller,
        ublReceipt({
          id: `OTHER-${dialect}`,
          merchant: 'Koffiebar Lindeboom',
          date: '2015-01-09',
          amountMinor: 25033n,
        }),
        'other.xml',
        'application/xml',
      );
      const tx = await call(
        app.baseUrl,
        'transactions.get',
        { id: second.transaction_id },
        { token: caller.token },
      );
      const attached = await call(
        app.baseUrl,
        'matching.attach',
        {
          receiptId: other.id,
          expectedReceiptRevision: other.revision,
          transactionId: second.transaction_id,
          expectedTransactionRevision: (tx.data as { revision: number }).revision,
        },
        { token: caller.token },
      );
      assert.equal(attached.status, 200, JSON.stringify(attached.body));
      const refused = await reopen(caller, second);
      assertError(refused, 409, 'invalid_state');
      assert.match(refused.error.message, /transaction is matched/);
      const still = await suggestions(app, caller, { receiptId: second.receipt_id, state: 'declined' });
      assert.deepEqual(
        still.map((s) => [s.id, s.revision]),
        [[second.id, second.revision]],
      );
    });

    it('a key that may only read may not reopen', async () => {
      const finance = await createCaller(app, { role: 'finance' });
      const { declined } = await declinedPair(finance);
      const reader = await createCaller(app, {
        role: 'finance',
        organizationId: finance.organizationId,
        scopes: ['accounting:read'],
      });
      assertError(await reopen(reader, declined), 403, 'insufficient_scope');
    });
  });
}
