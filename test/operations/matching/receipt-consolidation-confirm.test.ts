import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkAccess } from '../../../src/operations/access.ts';
import type { Principal } from '../../../src/operations/context.ts';
import { confirmReceiptConsolidation } from '../../../src/operations/matching/receipt-consolidation-confirm.ts';
import {
  type ConsolidationConfirmation,
  confirmConsolidation,
} from '../../../src/receipts/consolidation/confirm.ts';
import { withUnit } from '../../../src/unit/with-unit.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';
import { ublReceipt } from '../../support/receipts.ts';
import { uploadAndProcess } from '../receipts/helpers.ts';
import { attentionIds, cardAccount, cardTransaction, paypalReceipt } from './helpers.ts';

interface Preview {
  mode: string;
  receipt_entry: { id: string; revision: number };
  target_entry: { id: string; revision: number };
  transactions: { id: string; revision: number }[];
  original_evidence: { id: string }[];
  source_fingerprint: string;
}

let serial = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++serial}`;

const previewOf = (app: TestApp, caller: Caller, receiptEntryId: string, targetEntryId: string) =>
  call(
    app.baseUrl,
    'matching.receiptConsolidation.preview',
    { receiptEntryId, targetEntryId },
    { token: caller.token, method: 'GET' },
  );

function confirmationOf(p: Preview, reason: string): ConsolidationConfirmation {
  return {
    receiptEntryId: p.receipt_entry.id,
    expectedReceiptRevision: p.receipt_entry.revision,
    targetEntryId: p.target_entry.id,
    expectedTargetRevision: p.target_entry.revision,
    mode: p.mode as ConsolidationConfirmation['mode'],
    transactions: p.transactions.map((t) => ({ id: t.id, expectedRevision: t.revision })),
    expectedSourceFingerprint: p.source_fingerprint,
    reviewedOriginalEvidenceIds: p.original_evidence.map((e) => e.id),
    originalsReviewed: true,
    reason,
  };
}

/** The dashboard's call: the domain confirmation inside a unit of work of the signed-in member. */
function confirmAsDashboard(app: TestApp, caller: Caller, input: ConsolidationConfirmation) {
  return withUnit(
    app.services,
    {
      organizationId: caller.organizationId,
      actor: { type: 'member', memberId: caller.memberId, credentialId: 'dashboard-session' },
      operation: 'matching.receiptConsolidation.confirm',
    },
    (unit) => confirmConsolidation(unit, input, caller.memberId),
  );
}

describe('matching.receiptConsolidation.confirm: who may confirm', () => {
  const session = (role: Principal['role']): Principal => ({
    organizationId: 'org',
    memberId: 'member',
    role,
    scopes: new Set(confirmReceiptConsolidation.access.scopes),
    credentialId: 'session:1',
    credentialType: 'session',
  });
  it('an admin may confirm (an organization made by init has only one), as a finance member may', () => {
    assert.doesNotThrow(() => checkAccess(confirmReceiptConsolidation, session('admin')));
    assert.doesNotThrow(() => checkAccess(confirmReceiptConsolidation, session('finance')));
  });
});

for (const dialect of DIALECTS) {
  describe(`receipt consolidation end to end (${dialect})`, () => {
    let app: TestApp;

    before(async () => {
      app = await startTestApp(dialect);
    });
    after(async () => {
      await app?.close();
    });

    it('two receipts of one order with no payment are not offered; once one is matched, the pair confirms', async () => {
      const caller = await createCaller(app);
      const order = (id: string, date: string, name: string) =>
        uploadAndProcess(
          app,
          caller,
          ublReceipt({ id, merchant: 'Shop AG', date, amountMinor: 12000n, orderNumber: 'ORD-55120' }),
          name,
          'application/xml',
        );
      const a = await order(unique('OC'), '2026-04-01', 'order.xml');
      const b = await order(unique('RC'), '2026-04-03', 'receipt.xml');
      assert.ok(a.entry_id && b.entry_id);
      const offered = await call(
        app.baseUrl,
        'matching.receiptConsolidation.candidates',
        { receiptEntryId: a.entry_id },
        { token: caller.token, method: 'GET' },
      );
      assert.equal(offered.status, 200, JSON.stringify(offered.body));
      assert.deepEqual(
        (offered.data.items as { entry_id: string }[]).filter((c) => c.entry_id === b.entry_id),
        [],
        'a pair no confirmation can name transactions for is not offered',
      );
      assertError(await previewOf(app, caller, a.entry_id, b.entry_id), 400, 'not_consolidatable');
      // The payment arrives and is matched to the receipt: the preview carries it and confirms.
      const account = await call(
        app.baseUrl,
        'accounts.create',
        { name: 'Bank', kind: 'checking', currency: 'EUR' },
        { token: caller.token },
      );
      assert.equal(account.status, 200, JSON.stringify(account.body));
      const tx = await call(
        app.baseUrl,
        'transactions.create',
        {
          accountId: (account.data as { id: string }).id,
          bookedDate: '2026-04-04',
          amountMinor: '-12000',
          description: 'SHOP AG ORD-55120',
        },
        { token: caller.token },
      );
      assert.equal(tx.status, 200, JSON.stringify(tx.body));
      const txData = tx.data as { id: string; revision: number };
      const item = await call(app.baseUrl, 'inbox.get', { id: b.id }, { token: caller.token });
      const attached = await call(
        app.baseUrl,
        'matching.attach',
        {
          receiptId: b.id,
          expectedReceiptRevision: (item.data as { revision: number }).revision,
          transactionId: txData.id,
          expectedTransactionRevision: txData.revision,
        },
        { token: caller.token },
      );
      assert.equal(attached.status, 200, JSON.stringify(attached.body));
      const res = await previewOf(app, caller, a.entry_id, b.entry_id);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const p = res.data as unknown as Preview;
      assert.deepEqual(
        p.transactions.map((t) => t.id),
        [txData.id],
      );
      const done = await confirmAsDashboard(
        app,
        caller,
        confirmationOf(p, 'Order confirmation and receipt of ORD-55120.'),
      );
      assert.equal(done.mode, 'same_order');
    });

    it('a consolidated card charge leaves attention.mine; the reason and the reviewer are readable', async () => {
      const caller = await createCaller(app);
      const card = await cardAccount(app, caller);
      const tx = await cardTransaction(
        app,
        caller,
        card,
        '2026-03-03',
        '-4990',
        'PAYPAL *SPOTIFY 4029357733',
      );
      const receipt = await paypalReceipt(app, caller, unique('PP'));
      assert.ok((await attentionIds(app, caller)).includes(tx.id));
      const res = await previewOf(app, caller, receipt.entry_id, tx.entry_id);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const reason = 'PayPal receipt for the card charge of the same total.';
      const done = await confirmAsDashboard(
        app,
        caller,
        confirmationOf(res.data as unknown as Preview, reason),
      );
      assert.ok(!(await attentionIds(app, caller)).includes(tx.id), 'the charge has its receipt now');
      for (const entryId of [tx.entry_id, receipt.entry_id]) {
        const entry = await call(app.baseUrl, 'entries.get', { id: entryId }, { token: caller.token });
        assert.equal(entry.status, 200, JSON.stringify(entry.body));
        const history = (entry.data as { consolidations: Record<string, unknown>[] }).consolidations;
        assert.equal(history.length, 1);
        assert.equal(history[0]?.id, done.consolidationId);
        assert.equal(history[0]?.reason, reason);
        assert.equal(history[0]?.confirmed_by, caller.memberId);
        assert.equal(history[0]?.target_entry_id, tx.entry_id);
      }
      const audit = await app.services.db.kysely
        .selectFrom('audit_log')
        .select(['actor_id', 'operation'])
        .where('organization_id', '=', caller.organizationId)
        .where('record_type', '=', 'receipt_consolidation')
        .where('record_id', '=', done.consolidationId)
        .execute();
      assert.deepEqual(audit, [
        { actor_id: caller.memberId, operation: 'matching.receiptConsolidation.confirm' },
      ]);
    });
  });
}
