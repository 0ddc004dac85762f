import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';
import { textPdf, ublReceipt } from '../../support/receipts.ts';
import { uploadAndProcess } from '../receipts/helpers.ts';
import { cardAccount, cardTransaction } from './helpers.ts';

// Issue 26: a subscription invoice dated at its service period's end is suggested against the
// charge at the period's start, not the next month's charge of the same amount, whichever
// arrives first (receipt or transactions), over HTTP on both databases.

let serial = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++serial}`;

interface Suggested {
  transaction_id: string;
  receipt_id: string;
  score: number;
  reasons: string[];
}

async function suggestionsFor(app: TestApp, token: string, input: Record<string, unknown>) {
  const res = await call(app.baseUrl, 'matching.suggestions.list', input, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (res.data as { items: Suggested[] }).items;
}

for (const dialect of DIALECTS) {
  describe(`matching a service period invoice (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    it('an e-invoice issued at the period end goes to the start-of-period charge (transactions first)', async () => {
      const caller = await createCaller(app, { role: 'finance' });
      const card = await cardAccount(app, caller);
      const previous = await cardTransaction(app, caller, card, '2026-09-01', '-1900', 'NOTION LABS INC');
      const start = await cardTransaction(app, caller, card, '2026-10-01', '-1900', 'NOTION LABS INC');
      const next = await cardTransaction(app, caller, card, '2026-10-31', '-1900', 'NOTION LABS INC');
      const receipt = await uploadAndProcess(
        app,
        caller,
        ublReceipt({
          id: unique('SUB'),
          merchant: 'Notion Labs Inc',
          date: '2026-10-31',
          amountMinor: 1900n,
          servicePeriod: { start: '2026-10-01', end: '2026-10-31' },
        }),
        'notion.xml',
        'application/xml',
      );
      const fields = receipt.fields as { servicePeriod?: { value: unknown; confidence: number } };
      assert.deepEqual(fields.servicePeriod?.value, { start: '2026-10-01', end: '2026-10-31' });
      assert.equal(receipt.date, '2026-10-31');
      const found = await suggestionsFor(app, caller.token, { receiptId: receipt.id });
      assert.equal(found[0]?.transaction_id, start.id, JSON.stringify(found));
      assert.ok(
        found[0]?.reasons.some((r) => r.startsWith('charged at the start of the service period')),
        JSON.stringify(found[0]?.reasons),
      );
      const nextSuggestion = found.find((s) => s.transaction_id === next.id);
      if (nextSuggestion) assert.ok(nextSuggestion.score < (found[0]?.score ?? 0));
      assert.ok(!found.some((s) => s.transaction_id === previous.id));
    });

    it('a PDF that prints only its period is dated by the start and found when the charge arrives later', async () => {
      const caller = await createCaller(app, { role: 'finance' });
      const card = await cardAccount(app, caller);
      const receipt = await uploadAndProcess(
        app,
        caller,
        await textPdf([
          'Figma GmbH',
          `Rechnung ${unique('R')}`,
          'Leistungszeitraum 01.10.2026 - 31.10.2026',
          'Professional plan 19,00 EUR',
          'Gesamtbetrag 19,00 EUR',
        ]),
        'figma.pdf',
        'application/pdf',
      );
      assert.equal(receipt.date, '2026-10-01');
      const next = await cardTransaction(app, caller, card, '2026-11-01', '-1900', 'FIGMA MONTHLY');
      const start = await cardTransaction(app, caller, card, '2026-10-01', '-1900', 'FIGMA MONTHLY');
      await app.runJobs();
      const found = await suggestionsFor(app, caller.token, { receiptId: receipt.id });
      assert.equal(found[0]?.transaction_id, start.id, JSON.stringify(found));
      const forNext = await suggestionsFor(app, caller.token, { transactionId: next.id });
      const nextScore = forNext.find((s) => s.receipt_id === receipt.id)?.score ?? 0;
      assert.ok(nextScore < (found[0]?.score ?? 0), `${nextScore} vs ${found[0]?.score}`);
    });

    it('an invoice issued at the period end waits for the start-of-period charge imported after it', async () => {
      const caller = await createCaller(app, { role: 'finance' });
      const card = await cardAccount(app, caller);
      const receipt = await uploadAndProcess(
        app,
        caller,
        ublReceipt({
          id: unique('SUB'),
          merchant: 'Notion Labs Inc',
          date: '2026-10-31',
          amountMinor: 2400n,
          servicePeriod: { start: '2026-10-01', end: '2026-10-31' },
        }),
        'notion.xml',
        'application/xml',
      );
      const start = await cardTransaction(app, caller, card, '2026-10-02', '-2400', 'NOTION LABS INC');
      await app.runJobs();
      const found = await suggestionsFor(app, caller.token, { transactionId: start.id });
      assert.equal(found[0]?.receipt_id, receipt.id, JSON.stringify(found));
    });
  });
}
