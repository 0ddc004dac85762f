import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createInvoice,
  createParty,
  eventsOf,
  type Json,
  LINE,
  sendInvoice,
} from '../../invoicing/ops-support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';

const NIL = '00000000-0000-0000-0000-000000000000';

for (const dialect of DIALECTS) {
  describe(`invoice drafts (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let party: Json;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      party = await createParty(app, admin);
    });
    after(() => app.close());

    it('creates a draft with server-computed totals (per line, half-even) and stores it', async () => {
      const invoice = await createInvoice(app, admin, String(party.id), {
        lines: [
          LINE,
          { description: 'Rounding tie', quantity: '1.005', unitAmountMinor: '100' },
          { description: 'Free', quantity: '3', unitAmountMinor: '0', taxRate: '5' },
        ],
        notes: 'Thanks',
      });
      assert.equal(invoice.status, 'draft');
      assert.equal(invoice.number, null);
      assert.equal(invoice.overdue, false);
      // 1.5 x 123450 = 185175, tax 13% = 24072.75 -> 24073; 1.005 x 100 = 100.5 -> 100 (half-even).
      assert.equal(invoice.subtotal_minor, '185275');
      assert.equal(invoice.tax_minor, '24073');
      assert.equal(invoice.total_minor, '209348');
      assert.equal(invoice.balance_minor, '209348');
      assert.equal(invoice.amount_paid_minor, '0');
      const lines = invoice.lines as Json[];
      assert.deepEqual(lines[0], {
        position: 0,
        description: 'Consulting',
        quantity: '1.5',
        unit_amount_minor: '123450',
        tax_rate: '13',
        subtotal_minor: '185175',
        tax_minor: '24073',
        total_minor: '209248',
      });
      assert.equal(lines[1]?.tax_rate, null);
      assert.equal(lines[1]?.total_minor, '100');
      const rows = await app.services.db.kysely
        .selectFrom('invoice_lines')
        .select(['position', 'total_minor', 'organization_id'])
        .where('invoice_id', '=', String(invoice.id))
        .orderBy('position')
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.position, String(r.total_minor), r.organization_id]),
        [
          [0, '209248', admin.organizationId],
          [1, '100', admin.organizationId],
          [2, '0', admin.organizationId],
        ],
      );
      const events = await eventsOf(app, String(invoice.id));
      assert.deepEqual(events, [
        {
          type: 'invoice.created',
          subject: { type: 'invoice', id: invoice.id },
          data: {
            number: null,
            status: 'draft',
            partyId: party.id,
            currency: 'CAD',
            totalMinor: '209348',
            amountPaidMinor: '0',
            balanceMinor: '209348',
            issueDate: '2026-01-10',
            dueDate: '2026-02-09',
            scheduledSendDate: null,
          },
        },
      ]);
      const got = await call(
        app.baseUrl,
        'invoices.get',
        { id: invoice.id },
        { token: admin.token, method: 'GET' },
      );
      assert.deepEqual(got.data, invoice);
    });

    it('computes the due date from payment terms and defaults the issue date to today', async () => {
      // The test clock starts at 2026-01-15T12:00Z; the organization's zone is UTC.
      const res = await call(
        app.baseUrl,
        'invoices.create',
        { partyId: party.id, currency: 'JPY', lines: [LINE], paymentTermsDays: 30 },
        { token: admin.token },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.issue_date, '2026-01-15');
      assert.equal(res.data.due_date, '2026-02-14');
      assert.equal(res.data.payment_terms_days, 30);
    });

    it('keeps amounts up to 9007199254740991 exact', async () => {
      const invoice = await createInvoice(app, admin, String(party.id), {
        lines: [{ description: 'Big', quantity: '1', unitAmountMinor: '9007199254740991' }],
      });
      assert.equal(invoice.total_minor, '9007199254740991');
      const got = await call(app.baseUrl, 'invoices.get', { id: invoice.id }, { token: admin.token });
      assert.equal(got.data.total_minor, '9007199254740991');
      assert.equal((got.data.lines as Json[])[0]?.unit_amount_minor, '9007199254740991');
    });

    it('refuses bad input with exact codes and creates nothing', async () => {
      const base = {
        partyId: party.id,
        currency: 'CAD',
        lines: [LINE],
        dueDate: '2026-02-09',
        issueDate: '2026-01-10',
      };
      const line = (patch: Json) => ({ ...base, lines: [{ ...LINE, ...patch }] });
      const cases: [Json, number, string, string | undefined][] = [
        [{ ...base, currency: 'usd' }, 400, 'unsupported_currency', 'currency'],
        [{ ...base, currency: 'XYZ' }, 400, 'unsupported_currency', 'currency'],
        [{ ...base, currency: 1 }, 400, 'invalid_input', 'currency'],
        [line({ quantity: '0' }), 400, 'invalid_quantity', 'lines.0.quantity'],
        [line({ quantity: '-1' }), 400, 'invalid_quantity', 'lines.0.quantity'],
        [line({ quantity: '1.00001' }), 400, 'invalid_quantity', 'lines.0.quantity'],
        [line({ quantity: '1e3' }), 400, 'invalid_quantity', 'lines.0.quantity'],
        [line({ quantity: 2 }), 400, 'invalid_input', 'lines.0.quantity'],
        [line({ unitAmountMinor: '-5' }), 400, 'invalid_input', 'lines.0.unitAmountMinor'],
        [line({ unitAmountMinor: '1.5' }), 400, 'invalid_input', 'lines.0.unitAmountMinor'],
        [line({ unitAmountMinor: 100 }), 400, 'invalid_input', 'lines.0.unitAmountMinor'],
        [line({ unitAmountMinor: '9007199254740992' }), 400, 'invalid_input', 'lines.0.unitAmountMinor'],
        [line({ unitAmountMinor: '99999999999999999999' }), 400, 'invalid_input', 'lines.0.unitAmountMinor'],
        [line({ quantity: '2', unitAmountMinor: '9007199254740991' }), 400, 'amount_overflow', 'lines.0'],
        [line({ taxRate: '100.5' }), 400, 'invalid_tax_rate', 'lines.0.taxRate'],
        [line({ taxRate: '-1' }), 400, 'invalid_tax_rate', 'lines.0.taxRate'],
        [line({ description: '' }), 400, 'invalid_input', 'lines.0.description'],
        [line({ colour: 'red' }), 400, 'unknown_field', 'lines.0.colour'],
        [{ ...base, lines: [] }, 400, 'invalid_input', 'lines'],
        [{ ...base, lines: Array.from({ length: 101 }, () => LINE) }, 400, 'invalid_input', 'lines'],
        [{ ...base, issueDate: '2026-02-30' }, 400, 'invalid_input', 'issueDate'],
        [{ ...base, dueDate: '2026-01-09' }, 400, 'invalid_input', 'dueDate'],
        [{ ...base, dueDate: undefined }, 400, 'invalid_input', 'dueDate'],
        [{ ...base, paymentTermsDays: 30 }, 400, 'invalid_input', 'paymentTermsDays'],
        [{ ...base, dueDate: undefined, paymentTermsDays: 366 }, 400, 'invalid_input', 'paymentTermsDays'],
        [{ ...base, scheduledSendDate: '2026-03-01' }, 400, 'invalid_input', 'scheduledSendDate'],
        [{ ...base, scheduledSendDate: '2026-01-09' }, 400, 'invalid_input', 'scheduledSendDate'],
        [{ ...base, scheduledSendDate: '0001-01-01' }, 400, 'invalid_input', 'scheduledSendDate'],
        [{ ...base, partyId: 'nope' }, 400, 'invalid_input', 'partyId'],
        [{ ...base, partyId: NIL }, 404, 'not_found', 'partyId'],
        [{ ...base, notes: 'x'.repeat(2001) }, 400, 'invalid_input', 'notes'],
      ];
      const count = async () =>
        (await app.services.db.kysely.selectFrom('invoices').select('id').execute()).length;
      const before = await count();
      for (const [input, status, code, field] of cases) {
        const res = await call(app.baseUrl, 'invoices.create', input, { token: admin.token });
        const label = JSON.stringify(input).slice(0, 200);
        assert.equal(res.status, status, label);
        assert.equal(res.error.code, code, label);
        assert.equal(res.error.field, field, label);
      }
      assert.equal(await count(), before);
    });

    it('updates a draft: replaces lines, recomputes totals and terms, needs the revision', async () => {
      const invoice = await createInvoice(app, admin, String(party.id), {
        dueDate: undefined,
        paymentTermsDays: 10,
      });
      const res = await call(
        app.baseUrl,
        'invoices.update',
        {
          id: invoice.id,
          expectedRevision: 1,
          issueDate: '2026-01-20',
          lines: [{ description: 'Other', quantity: '2', unitAmountMinor: '500', taxRate: '10' }],
          notes: 'PO 4711',
        },
        { token: admin.token },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.revision, 2);
      assert.equal(res.data.due_date, '2026-01-30');
      assert.equal(res.data.total_minor, '1100');
      assert.equal((res.data.lines as Json[]).length, 1);
      const stale = await call(
        app.baseUrl,
        'invoices.update',
        { id: invoice.id, expectedRevision: 1, notes: null },
        { token: admin.token },
      );
      assert.equal(stale.status, 409);
      assert.equal(stale.error.code, 'revision_conflict');
      assert.equal(stale.error.current_revision, 2);
      const cleared = await call(
        app.baseUrl,
        'invoices.update',
        { id: invoice.id, expectedRevision: 2, notes: null, dueDate: '2026-03-01' },
        { token: admin.token },
      );
      assert.equal(cleared.data.notes, null);
      assert.equal(cleared.data.payment_terms_days, null);
      assert.equal(cleared.data.due_date, '2026-03-01');
      const types = (await eventsOf(app, String(invoice.id))).map((e) => e.type);
      assert.deepEqual(types, ['invoice.created', 'invoice.updated', 'invoice.updated']);
    });

    it('keeps scheduledSendDate between the issue and due dates on update, naming the field', async () => {
      const invoice = await createInvoice(app, admin, String(party.id), { scheduledSendDate: '2026-01-10' });
      const update = (patch: Json) =>
        call(
          app.baseUrl,
          'invoices.update',
          { id: invoice.id, expectedRevision: invoice.revision, ...patch },
          { token: admin.token },
        );
      for (const patch of [
        { scheduledSendDate: '2026-01-09' },
        { scheduledSendDate: '2026-02-10' },
        // A later issue date would leave the kept send date before it.
        { issueDate: '2026-01-11' },
        { issueDate: '2026-01-20', scheduledSendDate: '2026-01-19' },
      ]) {
        const res = await update(patch);
        assert.equal(res.status, 400, JSON.stringify(patch));
        assert.equal(res.error.code, 'invalid_input', JSON.stringify(patch));
        assert.equal(res.error.field, 'scheduledSendDate', JSON.stringify(patch));
      }
      const moved = await update({ issueDate: '2026-01-20', scheduledSendDate: '2026-01-20' });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.data.scheduled_send_date, '2026-01-20');
      assert.equal(moved.data.revision, 2);
    });

    it('refuses to update an invoice that is no longer a draft (409 invalid_state)', async () => {
      const sent = await sendInvoice(app, admin, await createInvoice(app, admin, String(party.id)));
      const res = await call(
        app.baseUrl,
        'invoices.update',
        { id: sent.id, expectedRevision: sent.revision, notes: 'late' },
        { token: admin.token },
      );
      assert.equal(res.status, 409);
      assert.equal(res.error.code, 'invalid_state');
      assert.equal(res.error.state, 'sent');
    });

    it("treats another organization's invoice as not found", async () => {
      const stranger = await createCaller(app);
      const theirs = await createInvoice(app, stranger, String((await createParty(app, stranger)).id));
      for (const [operation, input] of [
        ['invoices.get', { id: theirs.id }],
        ['invoices.pdf', { id: theirs.id }],
        ['invoices.update', { id: theirs.id, expectedRevision: 1, notes: 'x' }],
        ['invoices.send', { id: theirs.id, expectedRevision: 1 }],
        ['invoices.void', { id: theirs.id, expectedRevision: 1 }],
        [
          'invoices.payments.record',
          {
            invoiceId: theirs.id,
            expectedRevision: 1,
            amountMinor: '1',
            paidOn: '2026-01-15',
            method: 'cash',
          },
        ],
      ] as const) {
        const res = await call(app.baseUrl, operation, input, { token: admin.token });
        assert.equal(res.status, 404, operation);
        assert.equal(res.error.code, 'not_found', operation);
      }
      const theirParty = await createParty(app, stranger);
      const res = await call(
        app.baseUrl,
        'invoices.create',
        { partyId: theirParty.id, currency: 'CAD', lines: [LINE], dueDate: '2026-02-01' },
        { token: admin.token },
      );
      assert.equal(res.status, 404);
      assert.equal(res.error.field, 'partyId');
    });

    it('lists newest first with status, overdue, party and search filters', async () => {
      const caller = await createCaller(app);
      const acme = await createParty(app, caller, { name: 'Acme Rockets' });
      const zeta = await createParty(app, caller, { name: 'Zeta Foods' });
      const a = await createInvoice(app, caller, String(acme.id), { dueDate: '2026-01-12' });
      app.clock.advance(1000);
      const b = await createInvoice(app, caller, String(zeta.id));
      app.clock.advance(1000);
      const c = await createInvoice(app, caller, String(zeta.id));
      const sentA = await sendInvoice(app, caller, a);
      await sendInvoice(app, caller, b);
      const list = async (input: Json) => {
        const res = await call(app.baseUrl, 'invoices.list', input, { token: caller.token, method: 'GET' });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return (res.data.items as Json[]).map((i) => i.id);
      };
      assert.deepEqual(await list({}), [c.id, b.id, a.id]);
      assert.deepEqual(await list({ status: 'draft' }), [c.id]);
      assert.deepEqual(await list({ status: 'sent' }), [b.id, a.id]);
      // a is due 2026-01-12, today is 2026-01-15: overdue; b is due 2026-02-09.
      assert.deepEqual(await list({ status: 'overdue' }), [a.id]);
      assert.deepEqual(await list({ partyId: zeta.id }), [c.id, b.id]);
      assert.deepEqual(await list({ search: 'acme' }), [a.id]);
      assert.deepEqual(await list({ search: String(sentA.number) }), [a.id]);
      assert.deepEqual(await list({ limit: 1, offset: 1 }), [b.id]);
      const page = await call(app.baseUrl, 'invoices.list', { status: 'overdue' }, { token: caller.token });
      assert.equal((page.data.items as Json[])[0]?.overdue, true);
      assert.equal((page.data.items as Json[])[0]?.lines, undefined);
      const bad = await call(app.baseUrl, 'invoices.list', { status: 'late' }, { token: caller.token });
      assert.equal(bad.status, 400);
      assert.equal(bad.error.field, 'status');
    });
  });
}
