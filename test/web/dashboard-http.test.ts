import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forgetReaderStatus } from '../../src/receipts/extraction/readers.ts';
import { createInvoice, createParty, sendInvoice } from '../invoicing/ops-support.ts';
import { uploadAndProcess } from '../operations/receipts/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { ublReceipt } from '../support/receipts.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { PageClient } from './dashboard-client.ts';

/** Dashboard answers that need no browser: what a person gets at a wrong address, what Home warns of. */
for (const dialect of DIALECTS) {
  describe(`dashboard pages over HTTP (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let client: PageClient;
    let admin: Caller;

    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(dialect, { env: { SMTP_URL: smtp.url } });
      app.services.config.publicUrl = app.baseUrl;
      admin = await createCaller(app, { role: 'admin' });
      const { email } = await app.services.db.kysely
        .selectFrom('members')
        .select('email')
        .where('id', '=', admin.memberId)
        .executeTakeFirstOrThrow();
      client = new PageClient(app);
      await client.signIn(smtp, email);
    });
    after(async () => {
      await app.close();
      await smtp.close();
    });

    it("records an invoice payment typed as people write it, in the invoice's currency", async () => {
      const party = await createParty(app, admin);
      const sent = await sendInvoice(app, admin, await createInvoice(app, admin, String(party.id)));
      const page = await (await client.get(`/dashboard/invoices/${String(sent.id)}`)).text();
      const form =
        /<form method="post" action="\/dashboard\/actions\/invoices\.payments\.record"[^>]*>([\s\S]*?)<\/form>/.exec(
          page,
        )?.[1];
      assert.ok(form, 'the invoice page offers to record a payment');
      assert.match(form, /<label for="f-amountMinor">Amount \(CAD\)<\/label>/);
      const fields: Record<string, string> = {};
      for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
        fields[name as string] = (value as string).replaceAll('&amp;', '&');
      assert.equal(fields._amounts, 'amountMinor:CAD');
      const answer = await client.post('/dashboard/actions/invoices.payments.record', {
        ...fields,
        amountMinor: '1.000,50',
        // The form's own default: the organization's today on the test clock.
        paidOn: /name="paidOn" type="date" required value="([^"]+)"/.exec(form)?.[1] ?? '',
        method: 'bank_transfer',
      });
      assert.equal(answer.status, 303, await answer.text());
      const got = await call(app.baseUrl, 'invoices.get', { id: sent.id }, { token: admin.token });
      const payments = (got.data as { payments: { amount_minor: string }[] }).payments;
      assert.deepEqual(
        payments.map((p) => p.amount_minor),
        ['100050'],
        '"1.000,50" typed in the form is 1,000.50 CAD',
      );
    });

    it('a picker offers every choice, not the first page of 100 (the ledger categories)', async () => {
      // 120 more categories than the organization had: the last ones sort after the first 100.
      for (let i = 0; i < 120; i += 1) {
        const saved = await call(
          app.baseUrl,
          'categories.save',
          { code: `Z${String(i).padStart(3, '0')}`, name: `Picker ${i}`, kind: 'expense' },
          { token: admin.token },
        );
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
      }
      const page = await (await client.get('/dashboard/entries')).text();
      const bulk = /<select id="bulk-category"[^>]*>([\s\S]*?)<\/select>/.exec(page)?.[1] ?? '';
      assert.match(bulk, /Picker 0\b/);
      assert.match(bulk, /Picker 119\b/);
    });

    it('an unknown address is an HTML 404 page, in the shell for a member, with a way back', async () => {
      const stranger = await new PageClient(app).get('/dashboard/no/such/page');
      assert.equal(stranger.status, 404);
      assert.match(stranger.headers.get('content-type') ?? '', /^text\/html/);
      assert.ok(stranger.headers.get('x-request-id'));
      const page = await stranger.text();
      assert.match(page, /<h1[^>]*>Page not found/);
      assert.match(page, /href="\/dashboard">Sign in/);
      assert.doesNotMatch(page, /aria-label="Main"/);

      const member = await client.get('/dashboard/invoicez');
      assert.equal(member.status, 404);
      const shell = await member.text();
      assert.match(shell, /aria-label="Main"/);
      assert.match(shell, /Go to Home/);
      // Named pages still win over the wildcard.
      assert.equal((await client.get('/dashboard/invoices')).status, 200);
    });

    it('the receipt page lists the service period read from an invoice (issue 26)', async () => {
      const receipt = await uploadAndProcess(
        app,
        admin,
        ublReceipt({
          id: `SUB-${process.pid}`,
          merchant: 'Notion Labs Inc',
          date: '2026-10-31',
          amountMinor: 1900n,
          servicePeriod: { start: '2026-10-01', end: '2026-10-31' },
        }),
        'notion.xml',
        'application/xml',
      );
      const page = await (await client.get(`/dashboard/receipts/${receipt.id}`)).text();
      assert.match(page, /<dt>Service period<\/dt><dd>2026-10-01 to 2026-10-31/);
      assert.match(page, /service period 2026-10-01 to 2026-10-31/);
    });

    it('Home names a missing receipt reader, and says nothing when all are there', async () => {
      const saved = process.env.PATH;
      process.env.PATH = '';
      forgetReaderStatus();
      try {
        const page = await (await client.get('/dashboard')).text();
        assert.match(page, /Some receipts cannot be read on this server yet/);
        assert.match(page, /Missing: pdftotext, pdftoppm, tesseract/);
        assert.match(page, /system-packages\.mjs/, 'an admin is told how to install them');
      } finally {
        process.env.PATH = saved;
        forgetReaderStatus();
      }
      assert.doesNotMatch(await (await client.get('/dashboard')).text(), /cannot be read on this server/);
    });
  });
}
