import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asJson } from '../../../src/db/values.ts';
import {
  createInvoice,
  createParty,
  eventsOf,
  type Json,
  pdfText,
  sendInvoice,
} from '../../invoicing/ops-support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call, openApiCheckedFetch } from '../../support/http.ts';

for (const dialect of DIALECTS) {
  describe(`invoice send, numbers, PDF and void (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let party: Json;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      party = await createParty(app, admin, { name: 'Northwind Traders', email: 'ap@northwind.example' });
    });
    after(() => app.close());

    const outboxFor = (organizationId: string) =>
      app.services.db.kysely
        .selectFrom('mail_outbox')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('kind', '=', 'invoice.sent')
        .execute();
    const sequence = async (organizationId: string) =>
      (
        await app.services.db.kysely
          .selectFrom('invoice_number_sequences')
          .select('last_value')
          .where('organization_id', '=', organizationId)
          .executeTakeFirst()
      )?.last_value;

    it('sends: number, status, PDF mailed to the party, events; a replay changes nothing', async () => {
      const draft = await createInvoice(app, admin, String(party.id));
      const key = 'send-replay-key-0001';
      const sent = await sendInvoice(app, admin, draft, key);
      assert.equal(sent.number, 'INV-000001');
      assert.equal(sent.status, 'sent');
      assert.equal(sent.revision, 2);
      assert.equal(sent.sent_at, app.clock.now().toISOString());
      const replay = await sendInvoice(app, admin, draft, key);
      assert.deepEqual(replay, sent);
      assert.equal(await sequence(admin.organizationId), 1);
      const mail = await outboxFor(admin.organizationId);
      assert.equal(mail.length, 1);
      const row = mail[0];
      assert.ok(row);
      assert.deepEqual(asJson(row.recipients), ['ap@northwind.example']);
      assert.equal(row.subject, 'Invoice INV-000001 from Test org');
      const attachments = asJson(row.attachments) as {
        filename: string;
        contentType: string;
        base64: string;
      }[];
      assert.equal(attachments.length, 1);
      assert.equal(attachments[0]?.filename, 'invoice-INV-000001.pdf');
      assert.equal(attachments[0]?.contentType, 'application/pdf');
      const pdf = Buffer.from(attachments[0]?.base64 ?? '', 'base64');
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
      const text = pdfText(pdf);
      if (text !== null) {
        for (const expected of ['INV-000001', 'Northwind Traders', 'CAD 2,092.48', 'Balance due']) {
          assert.ok(text.includes(expected), `missing ${expected} in:\n${text}`);
        }
      }
      const events = await eventsOf(app, String(draft.id));
      assert.deepEqual(
        events.map((e) => e.type),
        ['invoice.created', 'invoice.sent'],
      );
      assert.equal(events[1]?.data.number, 'INV-000001');
      assert.equal(events[1]?.data.status, 'sent');
    });

    it('refuses to send twice, with a stale revision, or without a party email; no number is used', async () => {
      const caller = await createCaller(app);
      const withEmail = await createParty(app, caller);
      const noEmail = await createParty(app, caller, { email: undefined });
      const first = await sendInvoice(app, caller, await createInvoice(app, caller, String(withEmail.id)));
      const again = await call(
        app.baseUrl,
        'invoices.send',
        { id: first.id, expectedRevision: first.revision },
        { token: caller.token },
      );
      assert.equal(again.status, 409);
      assert.equal(again.error.code, 'invalid_state');
      assert.equal(again.error.state, 'sent');
      const draft = await createInvoice(app, caller, String(withEmail.id));
      const stale = await call(
        app.baseUrl,
        'invoices.send',
        { id: draft.id, expectedRevision: 7 },
        { token: caller.token },
      );
      assert.equal(stale.status, 409);
      assert.equal(stale.error.code, 'revision_conflict');
      const orphan = await createInvoice(app, caller, String(noEmail.id));
      const refused = await call(
        app.baseUrl,
        'invoices.send',
        { id: orphan.id, expectedRevision: 1 },
        { token: caller.token },
      );
      assert.equal(refused.status, 409);
      assert.equal(refused.error.code, 'party_email_missing');
      assert.equal(await sequence(caller.organizationId), 1);
      const next = await sendInvoice(app, caller, draft);
      assert.equal(next.number, 'INV-000002');
      const stillDraft = await call(app.baseUrl, 'invoices.get', { id: orphan.id }, { token: caller.token });
      assert.equal(stillDraft.data.status, 'draft');
      assert.equal(stillDraft.data.number, null);
    });

    it('numbers each organization separately and without gaps under parallel sends', async () => {
      const caller = await createCaller(app);
      const customer = await createParty(app, caller);
      const noEmail = await createParty(app, caller, { email: undefined });
      const drafts: Json[] = [];
      for (let i = 0; i < 12; i++) drafts.push(await createInvoice(app, caller, String(customer.id)));
      const failing = await createInvoice(app, caller, String(noEmail.id));
      const results = await Promise.all(
        [...drafts.slice(0, 6), failing, ...drafts.slice(6)].map((draft) =>
          call(app.baseUrl, 'invoices.send', { id: draft.id, expectedRevision: 1 }, { token: caller.token }),
        ),
      );
      assert.deepEqual(results.map((r) => r.status).sort(), [...Array(12).fill(200), 409].sort());
      const numbers = results
        .filter((r) => r.status === 200)
        .map((r) => String(r.data.number))
        .sort();
      assert.deepEqual(
        numbers,
        Array.from({ length: 12 }, (_, i) => `INV-${String(i + 1).padStart(6, '0')}`),
      );
      assert.equal(await sequence(caller.organizationId), 12);
      assert.equal((await outboxFor(caller.organizationId)).length, 12);
    });

    it('sends a zero-total invoice straight to paid (invoice.sent then invoice.paid)', async () => {
      const draft = await createInvoice(app, admin, String(party.id), {
        lines: [{ description: 'Courtesy', quantity: '1', unitAmountMinor: '0' }],
      });
      const sent = await sendInvoice(app, admin, draft);
      assert.equal(sent.status, 'paid');
      assert.equal(sent.paid_at, sent.sent_at);
      const types = (await eventsOf(app, String(draft.id))).map((e) => e.type);
      assert.deepEqual(types, ['invoice.created', 'invoice.sent', 'invoice.paid']);
    });

    it('serves the PDF of a sent invoice, not of a draft', async () => {
      const draft = await createInvoice(app, admin, String(party.id), { notes: 'Payable by wire.' });
      const none = await call(app.baseUrl, 'invoices.pdf', { id: draft.id }, { token: admin.token });
      assert.equal(none.status, 404);
      assert.equal(none.error.code, 'not_found');
      const sent = await sendInvoice(app, admin, draft);
      // Later party edits do not rewrite a sent document.
      await call(
        app.baseUrl,
        'parties.update',
        { id: party.id, expectedRevision: party.revision, name: 'Renamed Corp' },
        { token: admin.token },
      );
      const res = await call(
        app.baseUrl,
        'invoices.pdf',
        { id: sent.id },
        { token: admin.token, method: 'GET' },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.filename, `invoice-${String(sent.number)}.pdf`);
      assert.equal(res.data.media_type, 'application/pdf');
      const pdf = Buffer.from(String(res.data.content_base64), 'base64');
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
      const text = pdfText(pdf);
      if (text !== null) {
        assert.ok(text.includes(String(sent.number)), text);
        assert.ok(text.includes('Northwind Traders'), text);
        assert.ok(!text.includes('Renamed Corp'), text);
        assert.ok(text.includes('Payable by wire.'), text);
      }
    });

    it('answers the PDF bytes themselves to Accept: application/pdf, the JSON form otherwise', async () => {
      const sent = await sendInvoice(app, admin, await createInvoice(app, admin, String(party.id)));
      const url = `${app.baseUrl}/api/v1/accounting/invoices.pdf`;
      const auth = { authorization: `Bearer ${admin.token}` };
      const fetchChecked = async (target: string, init: RequestInit) => {
        const response = await openApiCheckedFetch(target, init);
        const bytes = Buffer.from(await response.arrayBuffer());
        const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
        return { response, bytes, json: (isJson ? JSON.parse(bytes.toString()) : {}) as Json };
      };
      const withId = `${url}?id=${String(sent.id)}`;
      // Bad input is refused as a JSON error whatever the client accepts.
      const noId = await fetchChecked(url, {
        method: 'GET',
        headers: { ...auth, accept: 'application/pdf' },
      });
      assert.equal(noId.response.status, 400);
      assert.match(noId.response.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal((noId.json.error as { field: string }).field, 'id');

      const file = await fetchChecked(withId, { headers: { ...auth, accept: 'application/pdf' } });
      assert.equal(file.response.status, 200);
      assert.equal(file.response.headers.get('content-type'), 'application/pdf');
      assert.equal(
        file.response.headers.get('content-disposition'),
        `attachment; filename="invoice-${String(sent.number)}.pdf"; filename*=UTF-8''invoice-${String(sent.number)}.pdf`,
      );
      assert.equal(file.response.headers.get('vary'), 'Accept');
      const jsonForm = await call(app.baseUrl, 'invoices.pdf', { id: sent.id }, { token: admin.token });
      assert.deepEqual(file.bytes, Buffer.from(String(jsonForm.data.content_base64), 'base64'));
      assert.equal(jsonForm.headers.get('vary'), 'Accept');

      // POST negotiates the same way.
      const post = await fetchChecked(url, {
        method: 'POST',
        headers: {
          ...auth,
          accept: 'application/pdf, application/json;q=0.5',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ id: sent.id }),
      });
      assert.equal(post.response.status, 200);
      assert.deepEqual(post.bytes, file.bytes);
      // Clients that do not prefer the PDF keep the JSON form.
      for (const accept of ['*/*', 'application/json', 'application/*', 'application/pdf;q=0.1, */*']) {
        const other = await fetchChecked(withId, { headers: { ...auth, accept } });
        assert.equal(other.response.status, 200, accept);
        assert.equal((other.json.data as Json).filename, `invoice-${String(sent.number)}.pdf`, accept);
      }
      // Failures stay JSON errors.
      const draft = await createInvoice(app, admin, String(party.id));
      const missing = await fetchChecked(`${url}?id=${String(draft.id)}`, {
        headers: { ...auth, accept: 'application/pdf' },
      });
      assert.equal(missing.response.status, 404);
      assert.equal((missing.json.error as { code: string }).code, 'not_found');
    });

    it('voids drafts and unpaid sent invoices (number kept); refuses once paid or with payments', async () => {
      const draft = await createInvoice(app, admin, String(party.id));
      const key = 'void-replay-key-0001';
      const input = { id: draft.id, expectedRevision: 1, reason: 'Duplicate' };
      const voided = await call(app.baseUrl, 'invoices.void', input, {
        token: admin.token,
        idempotencyKey: key,
      });
      assert.equal(voided.status, 200, JSON.stringify(voided.body));
      assert.equal(voided.data.status, 'void');
      assert.equal(voided.data.void_reason, 'Duplicate');
      const replay = await call(app.baseUrl, 'invoices.void', input, {
        token: admin.token,
        idempotencyKey: key,
      });
      assert.deepEqual(replay.data, voided.data);
      const sent = await sendInvoice(app, admin, await createInvoice(app, admin, String(party.id)));
      const voidSent = await call(
        app.baseUrl,
        'invoices.void',
        { id: sent.id, expectedRevision: sent.revision },
        { token: admin.token },
      );
      assert.equal(voidSent.data.status, 'void');
      assert.equal(voidSent.data.number, sent.number);
      const again = await call(
        app.baseUrl,
        'invoices.void',
        { id: sent.id, expectedRevision: voidSent.data.revision },
        { token: admin.token },
      );
      assert.equal(again.status, 409);
      assert.equal(again.error.code, 'invalid_state');
      const partly = await sendInvoice(app, admin, await createInvoice(app, admin, String(party.id)));
      const pay = await call(
        app.baseUrl,
        'invoices.payments.record',
        {
          invoiceId: partly.id,
          expectedRevision: partly.revision,
          amountMinor: '100',
          paidOn: '2026-01-15',
          method: 'cash',
        },
        { token: admin.token },
      );
      assert.equal(pay.status, 200, JSON.stringify(pay.body));
      const refused = await call(
        app.baseUrl,
        'invoices.void',
        { id: partly.id, expectedRevision: (pay.data.invoice as Json).revision },
        { token: admin.token },
      );
      assert.equal(refused.status, 409);
      assert.equal(refused.error.code, 'invalid_state');
      const types = (await eventsOf(app, String(draft.id))).map((e) => e.type);
      assert.deepEqual(types, ['invoice.created', 'invoice.voided']);
    });
  });
}
