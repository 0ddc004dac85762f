import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createInvoice, createParty, sendInvoice } from '../invoicing/ops-support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { ok } from './support.ts';

interface Entry {
  source_type: string;
  source_id: string;
  date: string;
  amount_minor: string;
  counterparty: string | null;
  allocations: Array<{ category_code: string; amount_minor: string }>;
}

for (const dialect of DIALECTS) {
  describe(`invoices post ledger entries (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    it('a sent invoice posts its total (sales + tax), a payment posts to receivable; both balance', async () => {
      const party = await createParty(app, admin, { name: 'Northwind' });
      const invoice = await sendInvoice(app, admin, await createInvoice(app, admin, String(party.id)));
      const paid = await ok(app, admin, 'invoices.payments.record', {
        invoiceId: invoice.id,
        expectedRevision: invoice.revision,
        amountMinor: '10000',
        paidOn: app.clock.now().toISOString().slice(0, 10),
        method: 'bank_transfer',
      });
      assert.ok(paid);
      const page = await ok<{ items: Entry[] }>(app, admin, 'entries.list', {});
      const invoiceEntry = page.items.find((e) => e.source_type === 'invoice');
      const paymentEntry = page.items.find((e) => e.source_type === 'invoice_payment');
      assert.equal(invoiceEntry?.source_id, invoice.id);
      assert.equal(invoiceEntry?.amount_minor, String(invoice.total_minor ?? invoice.totalMinor));
      assert.equal(invoiceEntry?.date, '2026-01-10');
      assert.equal(invoiceEntry?.counterparty, 'Northwind');
      assert.deepEqual(
        invoiceEntry?.allocations.map((a) => a.category_code),
        ['4000', '2100'],
      );
      assert.equal(paymentEntry?.amount_minor, '10000');
      assert.deepEqual(
        paymentEntry?.allocations.map((a) => [a.category_code, a.amount_minor]),
        [['1200', '10000']],
      );
      for (const entry of [invoiceEntry, paymentEntry]) {
        assert.equal(
          entry?.allocations.reduce((sum, a) => sum + BigInt(a.amount_minor), 0n),
          BigInt(entry?.amount_minor ?? -1),
        );
      }
    });

    it('voiding a sent invoice posts the mirror entry (nets to zero); voiding a draft posts nothing', async () => {
      const party = await createParty(app, admin, { name: 'Contoso' });
      const sent = await sendInvoice(app, admin, await createInvoice(app, admin, String(party.id)));
      await ok(app, admin, 'invoices.void', {
        id: sent.id,
        expectedRevision: sent.revision,
        reason: 'Duplicate',
      });
      const draft = await createInvoice(app, admin, String(party.id));
      await ok(app, admin, 'invoices.void', { id: draft.id, expectedRevision: draft.revision });

      const page = await ok<{ items: Entry[] }>(app, admin, 'entries.list', { limit: 100 });
      const forSent = page.items.filter((e) => e.source_id === sent.id);
      const original = forSent.find((e) => e.source_type === 'invoice');
      const reversal = forSent.find((e) => e.source_type === 'invoice_void');
      assert.ok(original && reversal, 'both the invoice entry and its reversal are listed');
      assert.equal(BigInt(reversal.amount_minor), -BigInt(original.amount_minor));
      assert.equal(reversal.counterparty, 'Contoso');
      assert.deepEqual(
        reversal.allocations.map((a) => [a.category_code, BigInt(a.amount_minor)]),
        original.allocations.map((a) => [a.category_code, -BigInt(a.amount_minor)]),
      );
      assert.equal(
        reversal.allocations.reduce((sum, a) => sum + BigInt(a.amount_minor), 0n),
        BigInt(reversal.amount_minor),
      );
      assert.equal(page.items.filter((e) => e.source_id === draft.id).length, 0);
    });
  });
}
