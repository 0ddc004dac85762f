import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { confirmConsolidation } from '../../../src/receipts/consolidation/confirm.ts';
import { withUnit } from '../../../src/unit/with-unit.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';
import { cardAccount, cardTransaction, paypalReceipt } from './helpers.ts';

interface Candidate {
  entry_id: string;
  revision: number;
  mode: string;
  date: string;
  amount_minor: string;
  source_type: string;
}

for (const dialect of DIALECTS) {
  describe(`matching.receiptConsolidation.candidates (${dialect})`, () => {
    let app: TestApp;
    let caller: Caller;
    let receiptEntryId: string;
    let chargeEntryId: string;
    let farChargeEntryId: string;
    let otherAmountEntryId: string;

    before(async () => {
      app = await startTestApp(dialect);
      caller = await createCaller(app);
      const card = await cardAccount(app, caller);
      // The charge that settled the PayPal receipt, the same total 60 days later (out of the
      // window) and a charge of another total the same day (no settlement).
      chargeEntryId = (
        await cardTransaction(app, caller, card, '2026-03-03', '-4990', 'PAYPAL *SPOTIFY 4029357733')
      ).entry_id;
      farChargeEntryId = (
        await cardTransaction(app, caller, card, '2026-05-02', '-4990', 'PAYPAL *SPOTIFY 4029357733')
      ).entry_id;
      otherAmountEntryId = (await cardTransaction(app, caller, card, '2026-03-02', '-1250', 'CAFE CENTRAL'))
        .entry_id;
      receiptEntryId = (await paypalReceipt(app, caller, `PP-${process.pid}`)).entry_id;
    });
    after(async () => {
      await app?.close();
    });

    const candidates = async (who: Caller, input: Record<string, unknown>) =>
      call(app.baseUrl, 'matching.receiptConsolidation.candidates', input, {
        token: who.token,
        method: 'GET',
      });

    it('offers the card charge that settled the receipt, and nothing the preview would refuse', async () => {
      const res = await candidates(caller, { receiptEntryId });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const items = res.data.items as Candidate[];
      assert.deepEqual(
        items.map((c) => [c.entry_id, c.mode, c.date, c.amount_minor, c.source_type]),
        [[chargeEntryId, 'provider_card_settlement', '2026-03-03', '-4990', 'transaction']],
      );
      const ids = items.map((c) => c.entry_id);
      assert.ok(!ids.includes(farChargeEntryId), 'outside 31 days');
      assert.ok(!ids.includes(otherAmountEntryId), 'another total');
      // What is offered, the preview accepts.
      const preview = await call(
        app.baseUrl,
        'matching.receiptConsolidation.preview',
        { receiptEntryId, targetEntryId: chargeEntryId },
        { token: caller.token, method: 'GET' },
      );
      assert.equal(preview.status, 200);
      assert.equal((preview.data.target_entry as { revision: number }).revision, items[0]?.revision);
    });

    it('refuses an entry that is not a receipt entry, an unknown one, and another organization’s', async () => {
      assertError(await candidates(caller, { receiptEntryId: chargeEntryId }), 400, 'not_consolidatable');
      assertError(
        await candidates(caller, { receiptEntryId: '01890a5d-ac96-774b-bcce-b302099a8059' }),
        404,
        'not_found',
      );
      const stranger = await createCaller(app);
      assertError(await candidates(stranger, { receiptEntryId }), 404, 'not_found');
      assertError(await candidates(caller, { receiptEntryId, limit: 21 }), 400, 'invalid_input');
    });

    it('leaves out an entry the receipt entry was already consolidated into', async () => {
      const preview = await call(
        app.baseUrl,
        'matching.receiptConsolidation.preview',
        { receiptEntryId, targetEntryId: chargeEntryId },
        { token: caller.token, method: 'GET' },
      );
      const p = preview.data as Record<string, unknown> & {
        receipt_entry: { id: string; revision: number };
        target_entry: { id: string; revision: number };
        transactions: { id: string; revision: number }[];
        original_evidence: { id: string }[];
      };
      await withUnit(
        app.services,
        {
          organizationId: caller.organizationId,
          actor: { type: 'member', memberId: caller.memberId, credentialId: 'dashboard-session' },
          operation: 'matching.receiptConsolidation.confirm',
        },
        (unit) =>
          confirmConsolidation(
            unit,
            {
              receiptEntryId,
              expectedReceiptRevision: p.receipt_entry.revision,
              targetEntryId: chargeEntryId,
              expectedTargetRevision: p.target_entry.revision,
              mode: 'provider_card_settlement',
              transactions: p.transactions.map((t) => ({ id: t.id, expectedRevision: t.revision })),
              expectedSourceFingerprint: String(p.source_fingerprint),
              reviewedOriginalEvidenceIds: p.original_evidence.map((e) => e.id),
              originalsReviewed: true,
              reason: 'Same purchase: PayPal receipt settled by the card charge.',
            },
            `member:${caller.memberId}`,
          ),
      );
      const res = await candidates(caller, { receiptEntryId });
      assert.equal(res.status, 200);
      assert.deepEqual(res.data.items, []);
    });
  });
}
