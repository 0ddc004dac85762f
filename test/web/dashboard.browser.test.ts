import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { addEndpoint, causeEvent, deliverNow, FAST_DELIVERY_ENV } from '../support/webhook-delivery.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { assertAccessible, launchChromium } from './browser.ts';
import { linkIn } from './dashboard-client.ts';

/** Signs in as a real member would: the form, the mail from the SMTP peer, the link, the button. */
async function signIn(page: Page, app: TestApp, smtp: TestSmtpServer, email: string): Promise<void> {
  const count = smtp.messages.length;
  await page.goto(`${app.baseUrl}/dashboard`);
  await page.getByLabel('Your e-mail address').fill(email);
  await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await page.getByText('a sign-in link is on its way').waitFor();
  const message = await smtp.waitFor(
    (m) => smtp.messages.indexOf(m) >= count && JSON.stringify(m.to).includes(email),
  );
  await page.goto(linkIn(message.text ?? ''));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'What needs attention' }).waitFor();
}

async function emailOf(app: TestApp, caller: Caller): Promise<string> {
  const row = await app.services.db.kysely
    .selectFrom('members')
    .select('email')
    .where('id', '=', caller.memberId)
    .executeTakeFirstOrThrow();
  return row.email;
}

for (const dialect of DIALECTS) {
  describe(`dashboard in Chromium (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let receiver: WebhookReceiver;
    let browser: Browser;
    let admin: Caller;

    before(async () => {
      smtp = await startSmtpServer();
      receiver = await startWebhookReceiver({ status: 410 });
      app = await startTestApp(dialect, { env: { ...FAST_DELIVERY_ENV, SMTP_URL: smtp.url } });
      app.services.config.publicUrl = app.baseUrl;
      admin = await createCaller(app, { role: 'admin' });
      browser = await launchChromium();
    });
    after(async () => {
      await browser.close();
      await app.close();
      await receiver.close();
      await smtp.close();
    });

    it('an admin turns an endpoint back on and retries a delivery that then arrives; every page renders and passes axe', async () => {
      const endpoint = await addEndpoint(app, admin, `${receiver.url}/hook`);
      await causeEvent(app, admin);
      await deliverNow(app);
      assert.equal(
        receiver.requests.length,
        1,
        'the first attempt got 410 Gone: endpoint off, delivery failed',
      );
      receiver.answer({ status: 200 });
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await signIn(page, app, smtp, await emailOf(app, admin));
      await assertAccessible(page, 'home');
      assert.ok(await page.getByText('turned off').first().isVisible(), 'home lists the turned-off endpoint');

      await page.goto(`${app.baseUrl}/dashboard/webhooks/${endpoint.id}`);
      await assertAccessible(page, 'endpoint');
      await page.getByRole('button', { name: 'Turn endpoint on' }).click();
      await page.getByRole('status').getByText('Done: the endpoint was turned back on').waitFor();
      await page.getByRole('button', { name: 'Retry' }).first().click();
      await page.getByRole('status').waitFor();
      await deliverNow(app);
      const arrived = await receiver.waitFor((_request, ..._rest) => receiver.requests.length >= 2);
      assert.equal(arrived.headers['service-delivery-attempt'] !== undefined, true);
      await page.goto(`${app.baseUrl}/dashboard/webhooks/${endpoint.id}?status=succeeded`);
      await page.getByRole('link', { name: 'contractor.created' }).first().click();
      await page.getByRole('heading', { name: 'Attempts' }).waitFor();
      assert.equal(await page.locator('tbody tr').count(), 2, 'both attempts are in the log');
      await assertAccessible(page, 'delivery');

      const contractor = await call(
        app.baseUrl,
        'contractors.create',
        { displayName: 'Ada Pages', legalName: 'Ada Pages Ltd', email: 'ada.pages@example.com' },
        { token: admin.token },
      );
      assert.equal(contractor.status, 200);
      const pages: Array<[string, string, string | undefined]> = [
        ['/dashboard/webhooks', 'Webhooks', `${receiver.url}/hook`],
        ['/dashboard/invoices', 'Invoices and schedules', undefined],
        ['/dashboard/contractors', 'Contractors', 'Ada Pages'],
        [
          `/dashboard/contractors/${(contractor.data as { id: string }).id}`,
          'Ada Pages',
          'ada.pages@example.com',
        ],
        ['/dashboard/transactions', 'Transactions and entries', undefined],
        ['/dashboard/admin', 'Administration', await emailOf(app, admin)],
        ['/dashboard/sessions', 'My sessions', 'this browser'],
      ];
      for (const [path, heading, text] of pages) {
        await page.goto(`${app.baseUrl}${path}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        if (text) assert.ok(await page.getByText(text).first().isVisible(), `${path} shows ${text}`);
        await assertAccessible(page, path);
      }
      // Statement import from the page: the file goes up with progress, the job's page shows the counts.
      const account = await call(
        app.baseUrl,
        'accounts.create',
        { name: 'Checking', kind: 'checking', currency: 'CAD' },
        { token: admin.token },
      );
      assert.equal(account.status, 200, JSON.stringify(account.body));
      await page.goto(`${app.baseUrl}/dashboard/transactions`);
      await page.getByLabel('Statement file').setInputFiles({
        name: 'statement.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          'Date,Description,Amount\n2026-01-15,Coffee Shop,-4.50\n2026-01-16,Client payment,1200.00\n',
        ),
      });
      await page.getByRole('button', { name: 'Upload and import' }).click();
      await page.getByRole('heading', { name: 'Import of statement.csv' }).waitFor();
      await app.runJobs();
      await page.reload();
      await page.getByText('Finished').first().waitFor();
      assert.match(await page.locator('dl.facts').innerText(), /Added\s+2/);
      await assertAccessible(page, 'import');
      await page.goto(`${app.baseUrl}/dashboard/transactions`);
      assert.ok(
        await page.getByText('Coffee Shop').first().isVisible(),
        'the imported transactions are listed',
      );

      // A phone-sized screen: the same page stays usable (no horizontal page overflow).
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${app.baseUrl}/dashboard/admin`);
      const overflow = Number(
        await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'),
      );
      assert.ok(overflow <= 1, `no horizontal overflow on a phone (${overflow}px)`);
      await context.close();
    });

    it('a finance member cannot turn an endpoint on; the refusal names the code and the request id', async () => {
      const finance = await createCaller(app, { role: 'finance', organizationId: admin.organizationId });
      const endpoint = await addEndpoint(app, admin, `${receiver.url}/other`);
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, app, smtp, await emailOf(app, finance));
      // Finance has no webhooks page; a forged form with a valid CSRF token is still refused by role.
      const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
      const response = await page.request.post(`${app.baseUrl}/dashboard/actions/webhooks.endpoints.enable`, {
        form: {
          _csrf: csrf,
          id: endpoint.id,
          expectedRevision: String(endpoint.revision),
          idempotencyKey: 'dash-finance-enable',
        },
        maxRedirects: 0,
      });
      assert.equal(response.status(), 403);
      const body = await response.text();
      assert.match(body, /role_not_allowed/);
      assert.match(body, /request id <code>req_/);
      await context.close();
    });

    it('an idle session expires, and a suspended member is signed out on the next request', async () => {
      const member = await createCaller(app, { role: 'finance', organizationId: admin.organizationId });
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, app, smtp, await emailOf(app, member));
      app.clock.advance(app.services.config.sessions.idleMs + 1000);
      await page.goto(`${app.baseUrl}/dashboard/sessions`);
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await signIn(page, app, smtp, await emailOf(app, member));
      const memberRow = await call(
        app.baseUrl,
        'admin.members.list',
        { status: 'active', limit: 100 },
        { token: admin.token, method: 'GET' },
      );
      const revision = (memberRow.data.items as Array<{ id: string; revision: number }>).find(
        (m) => m.id === member.memberId,
      )?.revision;
      const suspended = await call(
        app.baseUrl,
        'admin.members.suspend',
        { id: member.memberId, expectedRevision: revision },
        { token: admin.token },
      );
      assert.equal(suspended.status, 200, JSON.stringify(suspended.body));
      await page.goto(`${app.baseUrl}/dashboard/transactions`);
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await context.close();
    });
  });
}
