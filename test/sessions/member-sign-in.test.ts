import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setMemberStatus } from '../../src/admin/organizations.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { auditRows } from '../support/audit.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { PageClient } from '../web/dashboard-client.ts';

for (const dialect of DIALECTS) {
  describe(`dashboard sign-in and sessions (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let admin: Caller;
    let email: string;

    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(dialect, {
        env: { SMTP_URL: smtp.url, ACCOUNTING_SIGN_IN_RATE_LIMIT: '30/1h' },
      });
      app.services.config.publicUrl = app.baseUrl;
      admin = await createCaller(app, { role: 'admin' });
      const row = await app.services.db.kysely
        .selectFrom('members')
        .select('email')
        .where('id', '=', admin.memberId)
        .executeTakeFirstOrThrow();
      email = row.email;
    });
    after(async () => {
      await app.close();
      await smtp.close();
    });

    it('signs in once through the e-mailed link; the link does not work twice; cookie flags are set', async () => {
      const client = new PageClient(app);
      assert.equal((await client.get('/dashboard')).headers.get('location'), '/dashboard/sign-in');
      const before = smtp.messages.length;
      await client.post('/dashboard/sign-in', { email });
      const message = await smtp.waitFor((m) => smtp.messages.indexOf(m) >= before);
      const path = new URL(/(http:\/\/\S+)/.exec(message.text ?? '')?.[1] ?? '').pathname;
      // Opening the link (a mail scanner's prefetch) signs nobody in and spends nothing.
      assert.equal((await client.get(path)).status, 200);
      const signed = await client.post(path, {});
      assert.equal(signed.status, 303);
      const cookie = signed.headers.get('set-cookie') ?? '';
      assert.match(cookie, /HttpOnly/);
      assert.match(cookie, /SameSite=Lax/);
      assert.doesNotMatch(cookie, /Secure/, 'no Secure flag on localhost');
      const home = await client.get('/dashboard');
      assert.equal(home.status, 200);
      assert.match(await home.text(), /What needs attention/);
      // Single use: a second browser gets the refusal page.
      const again = await new PageClient(app).post(path, {});
      assert.equal(again.status, 400);
      assert.match(await again.text(), /already used, has expired/);
      const audit = await auditRows(app.services.db.kysely, {
        organizationId: admin.organizationId,
        operation: 'dashboard.signIn',
      });
      assert.equal(audit.length, 1);
      assert.equal(audit[0]?.transport, 'dashboard');
      assert.match(String(audit[0]?.credential_id), /^session:/);
    });

    it('a name with a line break is refused; one stored before that rule changes no answer (no membership oracle)', async () => {
      const refused = await call(
        app.baseUrl,
        'admin.organization.update',
        { expectedRevision: 1, name: 'Acme\nBcc: attacker@example.com' },
        { token: admin.token },
      );
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.error.field, 'name');
      assert.match(refused.error.message, /one line of text/);
      // Stored by an older release: the sign-in answer is the same for a member and a stranger.
      await app.services.db.kysely
        .updateTable('organizations')
        .set({ name: 'Acme\r\nBcc: attacker@example.com' })
        .where('id', '=', admin.organizationId)
        .execute();
      const member = await new PageClient(app).post('/dashboard/sign-in', { email });
      const stranger = await new PageClient(app).post('/dashboard/sign-in', {
        email: 'stranger@example.com',
      });
      assert.equal(member.status, 200);
      assert.equal(stranger.status, 200);
      const sanitize = (page: string, address: string) =>
        page.replaceAll(address, 'ADDRESS').replace(/name="_csrf" value="[^"]*"/g, '');
      assert.equal(
        sanitize(await member.text(), email),
        sanitize(await stranger.text(), 'stranger@example.com'),
      );
      await app.services.db.kysely
        .updateTable('organizations')
        .set({ name: 'Acme' })
        .where('id', '=', admin.organizationId)
        .execute();
    });

    it("a stranger who spends a member's address allowance locks nobody out: no more mail, the same answer", async () => {
      const victim = await createCaller(app, { role: 'finance', organizationId: admin.organizationId });
      const row = await app.services.db.kysely
        .selectFrom('members')
        .select('email')
        .where('id', '=', victim.memberId)
        .executeTakeFirstOrThrow();
      // Requests for the address from other clients (each with its own client allowance) used it up.
      for (let i = 0; i < 30; i += 1) await app.services.signInRateLimiter.take(`sign-in:email:${row.email}`);
      const count = smtp.messages.length;
      const res = await new PageClient(app).post('/dashboard/sign-in', { email: row.email });
      assert.equal(res.status, 200, 'the member is not told to wait: nothing reveals the allowance');
      assert.match(await res.text(), /a sign-in link is on its way/);
      await app.services.mail.dispatchPending();
      assert.equal(smtp.messages.length, count, 'and no mail goes out while the allowance is spent');
    });

    it('an unknown address gets the same answer and no mail', async () => {
      const count = smtp.messages.length;
      const res = await new PageClient(app).post('/dashboard/sign-in', { email: 'nobody@example.com' });
      assert.equal(res.status, 200);
      assert.match(await res.text(), /If nobody@example.com belongs to a member/);
      await app.services.mail.dispatchPending();
      assert.equal(smtp.messages.length, count);
    });

    it('runs operations as the member with transport dashboard; refuses a form without the CSRF token', async () => {
      const client = new PageClient(app);
      await client.signIn(smtp, email);
      const page = await (await client.get('/dashboard/webhooks')).text();
      const csrf = PageClient.csrfOf(page);
      const form = {
        url: 'https://hooks.example.com/in',
        description: 'd',
        events: '*',
        idempotencyKey: 'dash-test-create-1',
        _back: '/dashboard/webhooks',
      };
      const refused = await client.post('/dashboard/actions/webhooks.endpoints.create', form);
      assert.equal(refused.status, 403);
      assert.match(await refused.text(), /csrf_failed/);
      const crossSite = await client.post(
        '/dashboard/actions/webhooks.endpoints.create',
        { ...form, _csrf: csrf },
        { origin: 'https://evil.example' },
      );
      assert.equal(crossSite.status, 403);
      const list = await call(
        app.baseUrl,
        'webhooks.endpoints.list',
        {},
        { token: admin.token, method: 'GET' },
      );
      assert.equal((list.data.items as unknown[]).length, 0, 'nothing was created');
      const created = await client.post('/dashboard/actions/webhooks.endpoints.create', {
        ...form,
        _csrf: csrf,
      });
      assert.equal(created.status, 200);
      assert.match(await created.text(), /shown <strong>only this once/);
      const audit = await auditRows(app.services.db.kysely, {
        organizationId: admin.organizationId,
        operation: 'webhooks.endpoints.create',
      });
      assert.equal(audit[0]?.transport, 'dashboard');
      assert.match(String(audit[0]?.credential_id), /^session:/);
    });

    it('lists my sessions and ends one; signs out', async () => {
      const first = new PageClient(app);
      await first.signIn(smtp, email);
      const second = new PageClient(app);
      await second.signIn(smtp, email);
      const page = await (await second.get('/dashboard/sessions')).text();
      assert.match(page, /this browser/);
      const ids = [...page.matchAll(/name="sessionId" value="([^"]+)"/g)].map((m) => m[1] ?? '');
      assert.ok(ids.length >= 2);
      // End every session but this browser's: the first client is out.
      const own = /<td>[^<]*<strong>\(this browser\)<\/strong>[\s\S]*?name="sessionId" value="([^"]+)"/.exec(
        page,
      )?.[1];
      for (const id of ids.filter((i) => i !== own)) {
        await second.post('/dashboard/sessions/end', { _csrf: PageClient.csrfOf(page), sessionId: id });
      }
      assert.equal((await first.get('/dashboard')).status, 303);
      assert.equal((await second.get('/dashboard')).status, 200);
      const out = await second.post('/dashboard/sign-out', { _csrf: PageClient.csrfOf(page) });
      assert.equal(out.headers.get('location'), '/dashboard/sign-in?signed-out');
      assert.equal((await second.get('/dashboard')).status, 303);
    });

    it('ends sessions at idle and absolute expiry', async () => {
      const client = new PageClient(app);
      await client.signIn(smtp, email);
      app.clock.advance(app.services.config.sessions.idleMs - 120_000);
      assert.equal((await client.get('/dashboard/sessions')).status, 200, 'still live, and touched');
      app.clock.advance(app.services.config.sessions.idleMs - 120_000);
      assert.equal((await client.get('/dashboard/sessions')).status, 200, 'the touch moved the idle expiry');
      app.clock.advance(app.services.config.sessions.idleMs + 1000);
      assert.equal((await client.get('/dashboard/sessions')).status, 303, 'idle too long');
      const busy = new PageClient(app);
      await busy.signIn(smtp, email);
      const steps = Math.ceil(
        app.services.config.sessions.absoluteMs / (app.services.config.sessions.idleMs / 2),
      );
      let status = 200;
      for (let i = 0; i < steps && status === 200; i += 1) {
        app.clock.advance(app.services.config.sessions.idleMs / 2);
        status = (await busy.get('/dashboard/sessions')).status;
      }
      assert.equal(status, 303, 'the absolute expiry ends even a busy session');
    });

    it('a suspended member is signed out on the next request', async () => {
      const client = new PageClient(app);
      const member = await createCaller(app, { role: 'finance', organizationId: admin.organizationId });
      const row = await app.services.db.kysely
        .selectFrom('members')
        .select('email')
        .where('id', '=', member.memberId)
        .executeTakeFirstOrThrow();
      await client.signIn(smtp, row.email);
      assert.equal((await client.get('/dashboard')).status, 200);
      await setMemberStatus(app.services.db.kysely, app.clock, {
        organizationId: admin.organizationId,
        memberId: member.memberId,
        status: 'suspended',
      });
      assert.equal((await client.get('/dashboard')).status, 303);
      const ended = await app.services.db.kysely
        .selectFrom('web_sessions')
        .select('end_reason')
        .where('principal_id', '=', member.memberId)
        .execute();
      assert.deepEqual(
        ended.map((r) => r.end_reason),
        ['principal_inactive'],
      );
    });

    it('rate-limits sign-in requests per address with Retry-After', async () => {
      const client = new PageClient(app);
      let last: Response | undefined;
      for (let i = 0; i < 32; i += 1)
        last = await client.post('/dashboard/sign-in', { email: 'flood@example.com' });
      assert.equal(last?.status, 429);
      assert.ok(Number(last?.headers.get('retry-after')) > 0);
    });
  });
}
