import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dbJson } from '../../../src/db/values.ts';
import { matchNewReceipt } from '../../../src/receipts/processing/suggestions.ts';
import { withUnit } from '../../../src/unit/with-unit.ts';
import { einvoiceFixture } from '../../receipts/extraction/einvoice-fixtures.ts';
import { createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';
import { uploadAndProcess } from '../receipts/helpers.ts';
import { attentionIds, cardAccount, cardTransaction, suggestions } from './helpers.ts';

// Suggestions both ways, confirm, decline (never again), attach/detach, aliases, auto-match.
// The UBL fixture: Koffiebar Lindeboom, 2015-01-09, EUR 250.33.

for (const dialect of DIALECTS) {
  describe(`matching (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    it('suggests an open transaction for a new receipt; confirming matches it and drops it from attention.mine', async () => {
      const caller = await createCaller(app, { role: 'finance' });
      const card = await cardAccount(app, caller);
      const tx = await cardTransaction(
        app,
        caller,
        card,
        '2015-01-11',
        '-25033',
        'SQ *KOFFIEBAR LINDEBOOM 0412',
      );
      const other = await cardTransaction(app, caller, card, '2015-01-11', '-4990', 'SHELL STATION 12');
      await app.runJobs();
      assert.ok((await attentionIds(app, caller)).includes(tx.id));
      const receipt = await uploadAndProcess(
        app,
        caller,
        einvoiceFixture('ubl-invoice.xml'),
        'r.xml',
        'application/xml',
      );
      const found = await suggestions(app, caller, { receiptId: receipt.id });
      assert.equal(found[0]?.transaction_id, tx.id);
      assert.ok(!found.some((s) => s.transaction_id === other.id));
      const top = found[0];
      assert.ok(top);
      const confirmed = await call(
        app.baseUrl,
        'matching.suggestions.confirm',
        { id: top.id, expectedRevision: top.revision },
        { token: caller.token },
      );
      assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
      assert.equal((confirmed.data as { entry_id: string }).entry_id, tx.entry_id);
      assert.ok(!(await attentionIds(app, caller)).includes(tx.id));
      assert.ok((await attentionIds(app, caller)).includes(other.id));
      const txNow = await call(app.baseUrl, 'transactions.get', { id: tx.id }, { token: caller.token });
      assert.equal((txNow.data as { status: string }).status, 'matched');
      assert.equal((txNow.data as { receipt_id: string }).receipt_id, receipt.id);
      const entry = await call(app.baseUrl, 'entries.get', { id: tx.entry_id }, { token: caller.token });
      assert.deepEqual((entry.data as { receipt_ids: string[] }).receipt_ids, [receipt.id]);
      const item = await call(app.baseUrl, 'inbox.get', { id: receipt.id }, { token: caller.token });
      assert.equal((item.data as { state: string }).state, 'matched');
      const aliases = await call(app.baseUrl, 'matching.aliases.list', {}, { token: caller.token });
      assert.ok(
        (aliases.data as { items: { merchant: string; source: string }[] }).items.some(
          (a) => /lindeboom/.test(a.merchant) && a.source === 'confirmed',
        ),
      );
      assertError(
        await call(
          app.baseUrl,
          'matching.suggestions.confirm',
          { id: top.id, expectedRevision: top.revision },
          { token: caller.token },
        ),
        409,
        'revision_conflict',
      );
      // Detach: both open again, the card transaction back in attention.mine.
      const detached = await call(
        app.baseUrl,
        'matching.detach',
        { receiptId: receipt.id, expectedRevision: (item.data as { revision: number }).revision },
        { token: caller.token },
      );
      assert.equal(detached.status, 200, JSON.stringify(detached.body));
      assert.ok((await attentionIds(app, caller)).includes(tx.id));
      const back = await call(app.baseUrl, 'inbox.get', { id: receipt.id }, { token: caller.token });
      assert.equal((back.data as { state: string }).state, 'ready');
      // Manual attach to the other transaction, stale revisions refused.
      const otherNow = await call(app.baseUrl, 'transactions.get', { id: other.id }, { token: caller.token });
      const input = {
        receiptId: receipt.id,
        expectedReceiptRevision: (back.data as { revision: number }).revision,
        transactionId: other.id,
        expectedTransactionRevision: (otherNow.data as { revision: number }).revision,
      };
      assertError(
        await call(
          app.baseUrl,
          'matching.attach',
          { ...input, expectedReceiptRevision: 1 },
          { token: caller.token },
        ),
        409,
        'revision_conflict',
      );
      const attached = await call(app.baseUrl, 'matching.attach', input, { token: caller.token });
      assert.equal(attached.status, 200, JSON.stringify(attached.body));
      assert.ok(!(await attentionIds(app, caller)).includes(other.id));
      assertError(
        await call(
          app.baseUrl,
          'matching.attach',
          { ...input, expectedReceiptRevision: input.expectedReceiptRevision + 1 },
          { token: caller.token },
        ),
        409,
        'revision_conflict',
      );
    });

    it('a declined pair is never suggested again', async () => {
      const caller = await createCaller(app);
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
      assert.equal((declined.data as { state: string }).state, 'declined');
      // Matching the receipt again (as a re-read would) suggests the pair no more.
      await withUnit(
        app.services,
        { organizationId: caller.organizationId, actor: { type: 'job', job: 'test' }, operation: 'test' },
        (unit) => matchNewReceipt(unit, receipt.id),
      );
      assert.deepEqual(await suggestions(app, caller, { receiptId: receipt.id }), []);
      assert.equal((await suggestions(app, caller, { receiptId: receipt.id, state: 'declined' })).length, 1);
    });

    it('suggests a waiting receipt for a new transaction; auto-match is off by default and exact-only when on', async () => {
      const caller = await createCaller(app, { role: 'admin' });
      const card = await cardAccount(app, caller);
      const receipt = await uploadAndProcess(
        app,
        caller,
        einvoiceFixture('ubl-invoice.xml'),
        'r.xml',
        'application/xml',
      );
      assert.deepEqual(await suggestions(app, caller, { receiptId: receipt.id }), []);
      const tx = await cardTransaction(
        app,
        caller,
        card,
        '2015-01-12',
        '-25033',
        'KOFFIEBAR LINDEBOOM UTRECHT',
      );
      await app.runJobs();
      const found = await suggestions(app, caller, { transactionId: tx.id });
      assert.equal(found[0]?.receipt_id, receipt.id);
      // Off by default: only a suggestion, nothing attached.
      const settings = await call(app.baseUrl, 'matching.settings.get', {}, { token: caller.token });
      assert.deepEqual(settings.data, { auto_match: false, revision: 1 });
      assert.ok((await attentionIds(app, caller)).includes(tx.id));

      // On, with a receipt that names the card with confidence: a new exact transaction is attached.
      const on = await call(
        app.baseUrl,
        'matching.settings.update',
        { autoMatch: true, expectedRevision: 1 },
        { token: caller.token },
      );
      assert.equal(on.status, 200, JSON.stringify(on.body));
      const second = await uploadAndProcess(
        app,
        caller,
        einvoiceFixture('cii-invoice.xml'),
        's.xml',
        'application/xml',
      );
      const fields = (second.fields ?? {}) as Record<string, unknown>;
      fields.cardLastFour = { value: '4242', confidence: 0.99, source: { kind: 'xml', path: '/test' } };
      await app.services.db.kysely
        .updateTable('receipts')
        .set({ card_last_four: '4242', fields: dbJson(fields) })
        .where('id', '=', second.id)
        .execute();
      const total = BigInt(second.total_minor as string);
      const date = second.date as string;
      const wrongAmount = await cardTransaction(
        app,
        caller,
        card,
        date,
        (-(total * 3n)).toString(),
        'SOMETHING ELSE',
      );
      await app.runJobs();
      assert.equal(
        (
          (await call(app.baseUrl, 'inbox.get', { id: second.id }, { token: caller.token })).data as {
            state: string;
          }
        ).state,
        'ready',
      );
      const exact = await cardTransaction(
        app,
        caller,
        card,
        date,
        (-total).toString(),
        String(second.merchant),
      );
      await app.runJobs();
      const after = (await call(app.baseUrl, 'inbox.get', { id: second.id }, { token: caller.token }))
        .data as { state: string; transaction_id: string };
      assert.equal(after.state, 'matched');
      assert.equal(after.transaction_id, exact.id);
      assert.ok((await attentionIds(app, caller)).includes(wrongAmount.id));
    });
  });
}
