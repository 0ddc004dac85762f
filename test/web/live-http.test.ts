import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { upload } from '../operations/receipts/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { ublReceipt } from '../support/receipts.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { PageClient } from './dashboard-client.ts';

/**
 * `GET /dashboard/live/<kind>/<id>` (decision 485): the member's session, read through the catalog
 * (the organization's records only), JSON even when refused, never cached, done once work ends.
 */
for (const dialect of DIALECTS) {
  describe(`live work polls over HTTP (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let client: PageClient;
    let finance: Caller;

    before(async () => {
      smtp = await startSmtpServer();
      // A limit that barely refills while the file runs, so what a poll takes can be counted.
      app = await startTestApp(dialect, { env: { SMTP_URL: smtp.url, ACCOUNTING_RATE_LIMIT: '1000/1h' } });
      app.services.config.publicUrl = app.baseUrl;
      finance = await createCaller(app, { role: 'finance' });
      const { email } = await app.services.db.kysely
        .selectFrom('members')
        .select('email')
        .where('id', '=', finance.memberId)
        .executeTakeFirstOrThrow();
      client = new PageClient(app);
      await client.signIn(smtp, email);
    });
    after(async () => {
      await app.close();
      await smtp.close();
    });

    const receipt = async (caller: Caller, id: string) => {
      const bytes = ublReceipt({ id, merchant: 'Kiosk', date: '2026-01-10', amountMinor: 250n });
      const res = await upload(app, caller, bytes, `${id}.xml`, 'application/xml');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.data as { item: { id: string } }).item.id;
    };

    it('follows a receipt until it is read, then says it is done', async () => {
      const id = await receipt(finance, `POLL-${dialect}`);
      const waiting = await client.get(`/dashboard/live/receipts/${id}`);
      assert.equal(waiting.status, 200);
      assert.equal(waiting.headers.get('cache-control'), 'no-store');
      assert.match(waiting.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(await waiting.json(), {
        done: false,
        status: 'Waiting to be read: what is found appears here.',
        progress: null,
        fields: { state: 'Waiting to be read' },
      });
      await app.runJobs();
      const read = (await (await client.get(`/dashboard/live/receipts/${id}`)).json()) as Record<
        string,
        unknown
      >;
      assert.equal(read.done, true);
      assert.deepEqual(read.progress, { value: 1, max: 1 });
      assert.match(String(read.status), /^Read: (ready|needs review)\.$/);
    });

    it("refuses without a session in JSON, and knows no other organization's work", async () => {
      const id = await receipt(finance, `ANON-${dialect}`);
      const anonymous = await fetch(`${app.baseUrl}/dashboard/live/receipts/${id}`);
      assert.equal(anonymous.status, 401);
      const refusal = (await anonymous.json()) as { error: { code: string; request_id: string } };
      assert.equal(refusal.error.code, 'invalid_credential');
      assert.equal(refusal.error.request_id, anonymous.headers.get('x-request-id'), 'the id to quote');

      const stranger = await createCaller(app);
      const theirs = await receipt(stranger, `THEIRS-${dialect}`);
      const foreign = await client.get(`/dashboard/live/receipts/${theirs}`);
      assert.equal(foreign.status, 404);
      assert.equal(((await foreign.json()) as { error: { code: string } }).error.code, 'not_found');

      const kind = await client.get(`/dashboard/live/invoices/${id}`);
      assert.equal(kind.status, 404);
      const list = await client.get(`/dashboard/live/inbox/${id},not-an-id`);
      assert.equal(list.status, 400, 'a list names receipts by id');
      const many = await client.get(`/dashboard/live/inbox/${Array(21).fill(id).join(',')}`);
      assert.equal(many.status, 400, 'at most a page of 20');
      const mixed = await client.get(`/dashboard/live/inbox/${id},${theirs}`);
      assert.equal(mixed.status, 404, "another organization's receipt in the list");
      const malformed = await client.get('/dashboard/live/imports/not-an-id');
      assert.equal(malformed.status, 400);
      const bad = (await malformed.json()) as { error: { code: string; field: string } };
      assert.equal(bad.error.code, 'invalid_input');
      assert.equal(bad.error.field, 'id');
    });

    it("a poll takes one token of the member's rate limit, however many receipts it reads", async () => {
      const id = await receipt(finance, `RATE-${dialect}`);
      const session = await app.services.db.kysely
        .selectFrom('web_sessions')
        .select('id')
        .where('principal_id', '=', finance.memberId)
        .executeTakeFirstOrThrow();
      const credential = `session:${session.id}`;
      const before = (await app.services.rateLimiter.take(credential)).remaining;
      const poll = await client.get(`/dashboard/live/inbox/${Array(20).fill(id).join(',')}`);
      assert.equal(poll.status, 200);
      const after = (await app.services.rateLimiter.take(credential)).remaining;
      assert.equal(before - after, 2, 'the poll and this look, not 20 reads');
    });
  });
}
