import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { auditRows } from '../support/audit.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { assertAccessible, assertNoHorizontalOverflow, launchChromium, signIn } from './browser.ts';

async function shot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOT_DIR)
    await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}.png`, fullPage: true });
}

/** Desktop and phone: axe finds nothing serious, the page never scrolls sideways. */
async function check(page: Page, label: string, name: string): Promise<void> {
  await assertAccessible(page, label);
  await shot(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
  await assertNoHorizontalOverflow(page, `${label} on a phone`);
  await shot(page, `${name}-phone`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Administration through the pages only: settings, members, keys with expiry, the audit log. */
for (const dialect of DIALECTS) {
  describe(`administration in Chromium (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let browser: Browser;
    let admin: Caller;
    let page: Page;
    /** The finance member suspended, reinstated and removed (its audit entries are looked up later). */
    let financeId = '';

    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(dialect, { env: { SMTP_URL: smtp.url } });
      app.services.config.publicUrl = app.baseUrl;
      admin = await createCaller(app, { role: 'admin' });
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      page = await context.newPage();
      // Suspend, remove and revoke ask first; the member says yes.
      page.on('dialog', (dialog) => void dialog.accept());
      await signIn(page, app, smtp, admin);
    });
    after(async () => {
      await browser.close();
      await app.close();
      await smtp.close();
    });

    it('changes the organization settings in a form, clears an optional one, and every time follows the new zone', async () => {
      await page.goto(`${app.baseUrl}/dashboard/admin`);
      await page.getByRole('link', { name: 'Organization settings' }).click();
      await page.getByRole('heading', { level: 1, name: 'Organization settings' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Acme Berlin');
      await page.getByLabel('Legal name').fill('Acme Berlin GmbH');
      await page.getByLabel('Address').fill('Hauptstr. 1\n10115 Berlin');
      await page.getByLabel('Time zone').selectOption('Europe/Berlin');
      await page.getByLabel('Default currency').fill('EUR');
      await page.getByLabel('Invoice number prefix').fill('AB-');
      await page.getByLabel('Keep company-mail scans (days)').fill('90');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Done: ').waitFor();
      let org = await call(app.baseUrl, 'admin.organization.get', {}, { token: admin.token });
      assert.deepEqual(
        (({
          name,
          legal_name,
          address,
          time_zone,
          default_currency,
          invoice_number_prefix,
          mail_scan_retention_days,
        }) => ({
          name,
          legal_name,
          address,
          time_zone,
          default_currency,
          invoice_number_prefix,
          mail_scan_retention_days,
        }))(org.data as Record<string, unknown>),
        {
          name: 'Acme Berlin',
          legal_name: 'Acme Berlin GmbH',
          address: 'Hauptstr. 1\n10115 Berlin',
          time_zone: 'Europe/Berlin',
          default_currency: 'EUR',
          invoice_number_prefix: 'AB-',
          mail_scan_retention_days: 90,
        },
      );
      // The form shows what is stored; emptying an optional field clears it.
      assert.equal(await page.getByLabel('Legal name').inputValue(), 'Acme Berlin GmbH');
      assert.match(await page.locator('header.top').innerText(), /Acme Berlin/);
      assert.match(await page.getByText(/^Last changed/).innerText(), /2026-01-15 13:00 \(Europe\/Berlin\)/);
      await page.getByLabel('Legal name').fill('');
      await page.getByLabel('Keep company-mail scans (days)').fill('');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Done: ').waitFor();
      org = await call(app.baseUrl, 'admin.organization.get', {}, { token: admin.token });
      const data = org.data as Record<string, unknown>;
      assert.equal(data.legal_name, null);
      assert.equal(data.mail_scan_retention_days, null);
      assert.equal(data.name, 'Acme Berlin', 'the rest is unchanged');
      // A name of spaces passes the browser's `required` but not the operation: refused beside
      // the input, everything typed kept, nothing changed.
      await page.getByLabel('Name', { exact: true }).fill('   ');
      await page.getByLabel('Legal name').fill('Typed but not saved');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.locator('#f-org-name-error').waitFor();
      assert.equal(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid'), 'true');
      assert.equal(await page.getByLabel('Legal name').inputValue(), 'Typed but not saved');
      assert.match(await page.locator('#f-org-name-error').innerText(), /invalid_input/);
      assert.equal(
        (
          (await call(app.baseUrl, 'admin.organization.get', {}, { token: admin.token })).data as {
            legal_name: unknown;
          }
        ).legal_name,
        null,
      );
      await assertAccessible(page, 'organization settings refused in place');
      await shot(page, 'admin-organization-refused');
      await page.goto(`${app.baseUrl}/dashboard/admin/organization`);
      await check(page, 'organization settings', 'admin-organization');
    });

    it('suspends, reinstates (no key comes back) and removes a member, each audited as the dashboard', async () => {
      const finance = await createCaller(app, { role: 'finance', organizationId: admin.organizationId });
      financeId = finance.memberId;
      const { email } = await app.services.db.kysely
        .selectFrom('members')
        .select('email')
        .where('id', '=', finance.memberId)
        .executeTakeFirstOrThrow();
      await page.goto(`${app.baseUrl}/dashboard/admin`);
      const row = page
        .getByRole('region', { name: /^Member, Role/ })
        .getByRole('row')
        .filter({ hasText: email });
      await row.getByRole('button', { name: 'Suspend' }).click();
      await page.getByText('Done: the member was suspended.').waitFor();
      assert.match(await row.innerText(), /Suspended/);
      assert.equal((await call(app.baseUrl, 'categories.list', {}, { token: finance.token })).status, 401);

      await row.getByRole('button', { name: 'Reinstate' }).click();
      await page.getByText('Done: the member was reinstated').waitFor();
      assert.match(await row.innerText(), /Active/);
      assert.ok(await row.getByRole('button', { name: 'Suspend' }).isVisible());
      // Back in, but the key ended with the suspension stays ended (decision 155).
      assert.equal((await call(app.baseUrl, 'categories.list', {}, { token: finance.token })).status, 401);
      const [reinstated] = await auditRows(app, {
        organizationId: admin.organizationId,
        operation: 'admin.members.reinstate',
      });
      assert.equal(reinstated?.record_id, finance.memberId);
      assert.equal(reinstated?.transport, 'dashboard');
      assert.equal(reinstated?.actor_id, admin.memberId);
      assert.match(String(reinstated?.credential_id), /^session:/);

      await row.getByRole('button', { name: 'Remove' }).click();
      await page.getByText('Done: the member was removed.').waitFor();
      assert.match(await row.innerText(), /Removed/);
      assert.equal(await row.getByRole('button').count(), 0, 'removed is final: nothing to press');
      // The admin's own row offers nothing that would lock them out.
      assert.equal(
        await page
          .getByRole('region', { name: /^Member, Role/ })
          .getByRole('row')
          .filter({ hasText: /\byou$/ })
          .getByRole('button')
          .count(),
        0,
      );
    });

    it('adds a member and creates a key with an expiry on the organization clock, showing creator and expiry', async () => {
      await page.goto(`${app.baseUrl}/dashboard/admin`);
      await page.getByLabel('E-mail', { exact: true }).fill('new.person@example.com');
      await page.locator('#f-member-name').fill('New Person');
      await page.getByLabel('Role', { exact: true }).selectOption('admin');
      await page.getByRole('button', { name: 'Add member' }).click();
      await page.getByText('Done: ').waitFor();
      const rowsFor = page.getByRole('row').filter({ hasText: 'new.person@example.com' });
      assert.match(
        await rowsFor.filter({ hasText: 'New Person' }).innerText(),
        /New Person[\s\S]*Admin[\s\S]*Active/,
      );
      // The new member is told where to sign in (decision 460): the outbox lists that mail.
      assert.match(await rowsFor.filter({ hasText: 'member.added' }).innerText(), /You were added/);

      await page.locator('#f-key-name').fill('bookkeeping export');
      await page.getByLabel('accounting:write').check();
      await page.getByLabel('Expires (Europe/Berlin)').fill('2027-01-15T10:30');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByRole('heading', { name: 'API key created' }).waitFor();
      assert.match(await page.locator('#secret-value').innerText(), /^ak_/);
      await page.getByRole('link', { name: 'I have copied it' }).click();
      const keyRow = page.getByRole('row').filter({ hasText: 'bookkeeping export' });
      const text = await keyRow.innerText();
      const { email } = await app.services.db.kysely
        .selectFrom('members')
        .select('email')
        .where('id', '=', admin.memberId)
        .executeTakeFirstOrThrow();
      assert.ok(text.includes(email), `the creator is named: ${text}`);
      assert.match(text, /2027-01-15 10:30 \(Europe\/Berlin\)/);
      const keys = await call(app.baseUrl, 'admin.apiKeys.list', {}, { token: admin.token });
      const created = (keys.data as { items: Array<Record<string, unknown>> }).items.find(
        (k) => k.name === 'bookkeeping export',
      );
      assert.equal(created?.expires_at, '2027-01-15T09:30:00.000Z', 'the wall clock became the instant');
      assert.deepEqual(created?.scopes, ['accounting:read', 'accounting:write']);
      assert.equal(created?.created_by, admin.memberId);
      // Two forms, no shared ids (issue 30: both used f-name).
      const ids = (await page.evaluate(
        'Array.from(document.querySelectorAll("[id]")).map((e) => e.id)',
      )) as string[];
      assert.equal(new Set(ids).size, ids.length, 'ids are unique');
      await check(page, 'administration', 'admin');
    });

    it('lists the audit log with filters by operation, actor, record and time on the organization clock, a page at a time', async () => {
      // 31 changes an hour later than the rest, made over the API.
      app.clock.advance(3_600_000);
      for (let i = 0; i < 31; i += 1) {
        const saved = await call(
          app.baseUrl,
          'categories.save',
          { code: `T${i}`, name: `Test ${i}`, kind: 'expense' },
          { token: admin.token },
        );
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
      }
      await page.goto(`${app.baseUrl}/dashboard/admin`);
      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      await page.getByLabel('Operation').fill('admin.members.reinstate');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/operation=admin.members.reinstate/);
      const rows = page.getByRole('table').locator('tbody tr');
      assert.equal(await rows.count(), 1);
      const reinstate = await rows.first().innerText();
      assert.match(reinstate, /2026-01-15 13:00 \(Europe\/Berlin\)/);
      assert.match(reinstate, /Reinstate a suspended member/);
      assert.match(reinstate, /Dashboard/);
      assert.match(reinstate, /signed-in session/);
      assert.match(
        reinstate,
        new RegExp(`…${financeId.slice(-8)}`),
        'the record, told apart by its last characters',
      );
      // Everything about that member: suspended, reinstated, removed.
      await rows
        .first()
        .getByRole('link', { name: `…${financeId.slice(-8)}` })
        .click();
      await page.waitForURL(/recordId=/);
      assert.equal(await rows.count(), 3);
      await shot(page, 'admin-audit-record');

      // The API's changes, 30 to a page, by the admin, in the last hour on the Berlin clock.
      await page.goto(`${app.baseUrl}/dashboard/admin/audit`);
      await page.getByLabel('Who').selectOption(admin.memberId);
      await page.getByLabel('Operation').fill('categories.save');
      await page.getByLabel('From (Europe/Berlin)').fill('2026-01-15T13:30');
      await page.getByLabel('Before (Europe/Berlin)').fill('2026-01-15T14:30');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/from=2026-01-15T13%3A30/);
      assert.equal(await rows.count(), 30);
      assert.match(
        await rows.first().innerText(),
        /2026-01-15 14:00 \(Europe\/Berlin\)[\s\S]*API\s+key “unnamed”/,
      );
      await check(page, 'audit log', 'admin-audit');
      await page.getByRole('link', { name: 'Next page' }).click();
      await page.waitForURL(/cursor=/);
      assert.equal(await rows.count(), 1);
      assert.match(page.url(), /operation=categories.save/, 'the filters stay on the next page');
      assert.equal(await page.getByLabel('Before (Europe/Berlin)').inputValue(), '2026-01-15T14:30');
      await page.getByRole('link', { name: 'Back to the newest entries' }).click();
      assert.equal(await rows.count(), 30);

      // Before 13:30 Berlin there was no categories.save.
      await page.getByLabel('From (Europe/Berlin)').fill('');
      await page.getByLabel('Before (Europe/Berlin)').fill('2026-01-15T13:30');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByText('No audit entry matches these filters.').waitFor();

      // A reversed range and a malformed id are named beside their inputs, the input kept.
      await page.getByLabel('From (Europe/Berlin)').fill('2026-01-15T15:00');
      await page.getByLabel('Record id').fill('not-an-id');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByText('“To” must be after “From”.').waitFor();
      assert.equal(await page.getByLabel('Before (Europe/Berlin)').getAttribute('aria-invalid'), 'true');
      assert.equal(await page.getByLabel('Record id').getAttribute('aria-invalid'), 'true');
      assert.equal(await page.getByLabel('Record id').inputValue(), 'not-an-id');
      await assertAccessible(page, 'audit log with refused filters');
      await shot(page, 'admin-audit-refused');
    });
  });
}
