import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { causeEvent, deliverNow, FAST_DELIVERY_ENV } from '../support/webhook-delivery.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { assertAccessible, assertNoHorizontalOverflow, launchChromium, signIn } from './browser.ts';

/** The oracle: an instant on Berlin's wall clock, `YYYY-MM-DD HH:MM`, from the platform's own zone data. */
function berlin(instant: Date): string {
  return instant.toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' }).slice(0, 16);
}

/** Times on the organization's clock, words instead of stored codes, and a copy button for secrets. */
for (const dialect of DIALECTS) {
  describe(`dashboard zone, labels and copy in Chromium (${dialect})`, () => {
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
      const organization = await call(
        app.baseUrl,
        'admin.organization.get',
        {},
        { token: admin.token, method: 'GET' },
      );
      const zone = await call(
        app.baseUrl,
        'admin.organization.update',
        { timeZone: 'Europe/Berlin', expectedRevision: (organization.data as { revision: number }).revision },
        { token: admin.token },
      );
      assert.equal(zone.status, 200, JSON.stringify(zone.body));
    });
    after(async () => {
      await browser.close();
      await app.close();
      await receiver.close();
      await smtp.close();
    });

    it('an endpoint added by the page shows its secret with a working copy button; its state, times and recovery use words and Berlin time', async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
      const page = await context.newPage();
      await signIn(page, app, smtp, admin);

      await page.goto(`${app.baseUrl}/dashboard/webhooks`);
      await page.getByLabel('Receiver URL').fill(`${receiver.url}/hook`);
      await page.getByLabel('Events').fill('contractor.*');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = (await page.locator('#secret-value').innerText()).trim();
      assert.match(secret, /^whsec_/);
      await page.getByRole('button', { name: 'Copy to clipboard' }).click();
      await page.getByRole('status').getByText('Copied').waitFor();
      assert.equal(await page.evaluate('navigator.clipboard.readText()'), secret);
      await assertAccessible(page, 'secret shown once');
      await assertNoHorizontalOverflow(page, 'secret shown once');

      const endpoint = await app.services.db.kysely
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('organization_id', '=', admin.organizationId)
        .executeTakeFirstOrThrow();
      await causeEvent(app, admin);
      await deliverNow(app);
      const delivery = await app.services.db.kysely
        .selectFrom('webhook_deliveries')
        .select(['id', 'created_at'])
        .where('endpoint_id', '=', endpoint.id)
        .executeTakeFirstOrThrow();
      const created = new Date(delivery.created_at as unknown as string | Date);

      // Home and the endpoint page say why it was turned off in words; the code stays in the title.
      await page.goto(`${app.baseUrl}/dashboard`);
      await page.getByText('Turned off because the receiver answered 410 Gone').first().waitFor();
      assert.equal(await page.getByText('turned off: gone').count(), 0);
      await page.goto(`${app.baseUrl}/dashboard/webhooks/${endpoint.id}`);
      const body = await page.locator('main').innerText();
      assert.match(body, /turned off because the receiver answered 410 Gone/);
      assert.equal(
        await page.locator('[title="Code: gone"]').count(),
        1,
        'the stable code is kept for support',
      );
      assert.match(body, /\bFailed\b/);
      assert.doesNotMatch(body, /\bUTC\b/);
      assert.ok(
        body.includes(`${berlin(created)} (Europe/Berlin)`),
        `the delivery time is on Berlin's clock (${berlin(created)}): ${body}`,
      );
      await assertAccessible(page, 'endpoint turned off');

      // "Failed since" is a wall-clock input in Berlin time: half an hour before the delivery on
      // Berlin's clock recovers it (read as UTC, that would be half an hour after it: nothing).
      await page.getByRole('button', { name: 'Turn endpoint on' }).click();
      await page.getByRole('status').getByText('Done:').waitFor();
      const since = page.getByLabel('Failed since (Europe/Berlin)');
      assert.equal(await since.getAttribute('type'), 'datetime-local');
      await since.fill(berlin(new Date(created.getTime() - 30 * 60_000)).replace(' ', 'T'));
      await page.getByRole('button', { name: 'Recover failed deliveries' }).click();
      await page.getByRole('status').getByText('Done:').waitFor();
      const after = await app.services.db.kysely
        .selectFrom('webhook_deliveries')
        .select('status')
        .where('id', '=', delivery.id)
        .executeTakeFirstOrThrow();
      assert.equal(after.status, 'pending', 'the Berlin wall time was read as Berlin time');
      await context.close();
    });

    it('receipt, invoice and contractor pages show words for states, with the codes in titles', async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await signIn(page, app, smtp, admin);
      const contractor = await call(
        app.baseUrl,
        'contractors.create',
        { displayName: 'Ada Zone', legalName: 'Ada Zone Ltd', email: 'ada.zone@example.com' },
        { token: admin.token },
      );
      assert.equal(contractor.status, 200, JSON.stringify(contractor.body));
      await page.goto(`${app.baseUrl}/dashboard/contractors/${(contractor.data as { id: string }).id}`);
      await page.getByText('Not invited yet').waitFor();
      assert.equal(await page.getByText('not_invited').count(), 0);
      assert.equal(await page.locator('[title="Code: not_invited"]').count(), 1);
      await assertNoHorizontalOverflow(page, 'contractor');

      await page.goto(`${app.baseUrl}/dashboard/receipts`);
      await page.getByRole('link', { name: 'Needs review' }).click();
      await page.getByText('No receipts in “Needs review”.').waitFor();
      assert.equal(await page.getByText('needs review', { exact: true }).count(), 0);
      await assertAccessible(page, 'receipts filtered');

      await page.goto(`${app.baseUrl}/dashboard/invoices`);
      const options = await page.getByLabel('Status').locator('option').allInnerTexts();
      assert.deepEqual(options, ['Any', 'Draft', 'Sent', 'Paid', 'Cancelled (void)', 'Overdue']);
      // Every offered filter is one invoices.list takes ('Scheduled' was offered, and refused).
      const values = await page
        .getByLabel('Status')
        .locator('option')
        .evaluateAll((nodes) =>
          nodes.map((node) => (node as unknown as { value: string }).value).filter(Boolean),
        );
      for (const value of values) {
        const answer = await page.goto(`${app.baseUrl}/dashboard/invoices?status=${value}`);
        assert.equal(answer?.status(), 200, value);
      }
      await assertAccessible(page, 'invoices');
      await assertNoHorizontalOverflow(page, 'invoices');
      await context.close();
    });
  });
}
