import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createInvoice, createParty, eventsOf, type Json, sendInvoice } from '../../invoicing/ops-support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';

// The test clock starts at 2026-01-15T12:00Z; the organization's zone is UTC.
const TODAY = '2026-01-15';

for (const dialect of DIALECTS) {
  describe(`invoice payments (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let party: Json;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      party = await createParty(app, admin);
    });
    after(() => app.close());

    /** A sent invoice of 10000 minor units. */
    async function sentInvoice(): Promise<Json> {
      const draft = await createInvoice(app, admin, String(party.id), {
        lines: [{ description: 'Work', quantity: '4', unitAmountMinor: '2500' }],
      });
      return sendInvoice(app, admin, draft);
    }

    const pay = (invoice: Json, amountMinor: string, extra: Json = {}, key?: string) =>
      call(
        app.baseUrl,
        'invoices.payments.record',
        {
          invoiceId: invoice.id,
          expectedRevision: invoice.revision,
          amountMinor,
          paidOn: TODAY,
          method: 'bank_transfer',
          ...extra,
        },
        { token: admin.token, ...(key ? { idempotencyKey: key } : {}) },
      );

    it('records partial payments, then the one that pays the balance emits invoice.paid exactly', async () => {
      const invoice = await sentInvoice();
      const first = await pay(invoice, '3000', { reference: 'WIRE 1' });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const afterFirst = first.data.invoice as Json;
      assert.equal(afterFirst.status, 'sent');
      assert.equal(afterFirst.amount_paid_minor, '3000');
      assert.equal(afterFirst.balance_minor, '7000');
      assert.equal((first.data.payment as Json).reference, 'WIRE 1');
      const second = await pay(afterFirst, '7000', { method: 'card', paidOn: '2026-01-14' });
      assert.equal(second.status, 200, JSON.stringify(second.body));
      const paid = second.data.invoice as Json;
      assert.equal(paid.status, 'paid');
      assert.equal(paid.balance_minor, '0');
      assert.equal(paid.paid_at, app.clock.now().toISOString());
      assert.deepEqual(
        (paid.payments as Json[]).map((p) => [p.amount_minor, p.method, p.paid_on]),
        [
          ['3000', 'bank_transfer', TODAY],
          ['7000', 'card', '2026-01-14'],
        ],
      );
      const rows = await app.services.db.kysely
        .selectFrom('invoice_payments')
        .select(['amount_minor', 'organization_id'])
        .where('invoice_id', '=', String(invoice.id))
        .execute();
      assert.deepEqual(rows.map((r) => [String(r.amount_minor), r.organization_id]).sort(), [
        ['3000', admin.organizationId],
        ['7000', admin.organizationId],
      ]);
      const events = await eventsOf(app, String(invoice.id));
      assert.deepEqual(
        events.map((e) => e.type),
        [
          'invoice.created',
          'invoice.sent',
          'invoice.payment_recorded',
          'invoice.payment_recorded',
          'invoice.paid',
        ],
      );
      assert.equal(events[2]?.data.paymentAmountMinor, '3000');
      assert.equal(events[2]?.data.balanceMinor, '7000');
      const paidEvent = events[4];
      assert.deepEqual(paidEvent?.subject, { type: 'invoice', id: invoice.id });
      assert.deepEqual(paidEvent?.data, {
        number: invoice.number,
        status: 'paid',
        partyId: party.id,
        currency: 'CAD',
        totalMinor: '10000',
        amountPaidMinor: '10000',
        balanceMinor: '0',
        issueDate: '2026-01-10',
        dueDate: '2026-02-09',
        scheduledSendDate: null,
      });
      const late = await pay(paid, '1');
      assert.equal(late.status, 409);
      assert.equal(late.error.code, 'payment_not_allowed');
      assert.equal(late.error.state, 'paid');
    });

    it('refuses a payment above the balance and changes nothing', async () => {
      const invoice = await sentInvoice();
      const res = await pay(invoice, '10001');
      assert.equal(res.status, 409);
      assert.equal(res.error.code, 'payment_exceeds_balance');
      assert.equal(res.error.balance_minor, '10000');
      const got = await call(app.baseUrl, 'invoices.get', { id: invoice.id }, { token: admin.token });
      assert.equal(got.data.balance_minor, '10000');
      assert.equal(got.data.revision, invoice.revision);
      assert.deepEqual(got.data.payments, []);
    });

    it('replays a payment with the same idempotency key: one payment', async () => {
      const invoice = await sentInvoice();
      const key = 'payment-replay-key-1';
      const first = await pay(invoice, '2500', {}, key);
      const second = await pay(invoice, '2500', {}, key);
      assert.equal(first.status, 200);
      assert.deepEqual(second.data, first.data);
      const rows = await app.services.db.kysely
        .selectFrom('invoice_payments')
        .select('id')
        .where('invoice_id', '=', String(invoice.id))
        .execute();
      assert.equal(rows.length, 1);
      const other = await pay(invoice, '2600', {}, key);
      assert.equal(other.status, 400);
      assert.equal(other.error.code, 'idempotency_key_reused');
    });

    it('lets only one of two racing payments on the same revision through', async () => {
      const invoice = await sentInvoice();
      const results = await Promise.all([pay(invoice, '6000'), pay(invoice, '6000')]);
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 409]);
      assert.equal(results.find((r) => r.status === 409)?.error.code, 'revision_conflict');
      const got = await call(app.baseUrl, 'invoices.get', { id: invoice.id }, { token: admin.token });
      assert.equal(got.data.balance_minor, '4000');
    });

    it('refuses payments on drafts and void invoices', async () => {
      const draft = await createInvoice(app, admin, String(party.id));
      const onDraft = await pay(draft, '1');
      assert.equal(onDraft.status, 409);
      assert.equal(onDraft.error.code, 'payment_not_allowed');
      assert.equal(onDraft.error.state, 'draft');
      const voided = await call(
        app.baseUrl,
        'invoices.void',
        { id: draft.id, expectedRevision: 1 },
        { token: admin.token },
      );
      const onVoid = await pay(voided.data, '1');
      assert.equal(onVoid.error.code, 'payment_not_allowed');
    });

    it('accepts a deposit received up to 365 days before the issue date', async () => {
      const invoice = await sentInvoice();
      const res = await pay(invoice, '2500', { paidOn: '2025-01-10' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((res.data.payment as Json).paid_on, '2025-01-10');
    });

    it('refuses bad payment input with exact codes', async () => {
      const invoice = await sentInvoice();
      const cases: [Json, number, string, string][] = [
        [{ amountMinor: '0' }, 400, 'invalid_input', 'amountMinor'],
        [{ amountMinor: '-1' }, 400, 'invalid_input', 'amountMinor'],
        [{ amountMinor: '1.5' }, 400, 'invalid_input', 'amountMinor'],
        [{ amountMinor: 100 }, 400, 'invalid_input', 'amountMinor'],
        [{ amountMinor: '9007199254740992' }, 400, 'invalid_input', 'amountMinor'],
        [{ paidOn: '2026-01-16' }, 400, 'invalid_input', 'paidOn'],
        [{ paidOn: '2026-13-01' }, 400, 'invalid_input', 'paidOn'],
        // More than 365 days before the issue date (2026-01-10): a mistyped year, not a deposit.
        [{ paidOn: '0001-01-01' }, 400, 'invalid_input', 'paidOn'],
        [{ paidOn: '2025-01-09' }, 400, 'invalid_input', 'paidOn'],
        [{ method: 'bitcoin' }, 400, 'invalid_input', 'method'],
        [{ reference: 'x'.repeat(201) }, 400, 'invalid_input', 'reference'],
        [{ expectedRevision: 0 }, 400, 'invalid_input', 'expectedRevision'],
        [{ expectedRevision: 1 }, 409, 'revision_conflict', 'expectedRevision'],
        [{ invoiceId: '00000000-0000-0000-0000-000000000000' }, 404, 'not_found', 'invoiceId'],
      ];
      for (const [patch, status, code, field] of cases) {
        const { amountMinor, ...rest } = patch;
        const res = await pay(invoice, amountMinor === undefined ? '100' : (amountMinor as string), rest);
        assert.equal(res.status, status, JSON.stringify(patch));
        assert.equal(res.error.code, code, JSON.stringify(patch));
        assert.equal(res.error.field, field, JSON.stringify(patch));
      }
      const got = await call(app.baseUrl, 'invoices.get', { id: invoice.id }, { token: admin.token });
      assert.deepEqual(got.data.payments, []);
    });
  });
}
