import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { assertAccessible, assertNoHorizontalOverflow, launchChromium, signIn } from './browser.ts';

/** A new organization set up through the pages alone: Home's list, accounts, cards, contractors. */
for (const dialect of DIALECTS) {
  describe(`setting up the books in Chromium (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let browser: Browser;
    let admin: Caller;

    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(dialect, { env: { SMTP_URL: smtp.url } });
      app.services.config.publicUrl = app.baseUrl;
      admin = await createCaller(app, { role: 'admin' });
      browser = await launchChromium();
    });
    after(async () => {
      await browser.close();
      await app.close();
      await smtp.close();
    });

    it('Home lists the first steps; an account, a card and a contractor are added by pages and leave the list', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, app, smtp, admin);
      const steps = page
        .getByRole('region', { name: 'Getting started' })
        .or(page.locator('section', { has: page.getByRole('heading', { name: 'Getting started' }) }));
      await steps.first().waitFor();
      const stepText = () => steps.first().innerText();
      assert.match(await stepText(), /Add a bank or card account/);
      assert.match(await stepText(), /Add a card and its holder/);
      assert.match(await stepText(), /Invite a contractor/);
      await assertAccessible(page, 'home with getting started');

      await page.getByRole('link', { name: 'Add a bank or card account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Accounts and cards' }).waitFor();
      await assertAccessible(page, 'accounts, empty');
      await page.getByLabel('Name', { exact: true }).fill('Company card');
      await page.getByLabel('Kind').selectOption('credit_card');
      await page.getByLabel('Currency').fill('EUR');
      await page.getByRole('button', { name: 'Add account' }).click();
      await page.getByText('Done: the account was added').waitFor();
      assert.match(await page.getByRole('table').first().innerText(), /Company card\s+Credit card\s+EUR/);

      await page.getByLabel('Last four digits').fill('4242');
      await page.getByLabel('Label (optional)').fill('Travel card');
      await page.getByRole('button', { name: 'Add card' }).click();
      await page.getByText('Done: the card was added').waitFor();
      const cards = await page.getByRole('table').nth(1).innerText();
      assert.match(cards, /Travel card •••• 4242/);
      assert.match(cards, /\(me\)/);
      await assertAccessible(page, 'accounts with a card');

      // Through the API the same card is there, held by the admin: its charges reach their list.
      const listed = await call(app.baseUrl, 'cards.list', {}, { token: admin.token });
      const card = (listed.data as { items: Array<{ last_four: string; holder_member_id: string }> })
        .items[0];
      assert.deepEqual(card && [card.last_four, card.holder_member_id], ['4242', admin.memberId]);

      await page.goto(`${app.baseUrl}/dashboard`);
      const left = await stepText();
      assert.doesNotMatch(left, /Add a bank or card account/);
      assert.doesNotMatch(left, /Add a card and its holder/);
      assert.match(left, /Import a bank statement/);

      await page.getByRole('link', { name: 'Invite a contractor' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
      await page.getByLabel('Legal name').fill('Ada King');
      await page.getByLabel('E-mail').fill('ada@example.test');
      await page.getByRole('button', { name: 'Add contractor' }).click();
      await page.getByRole('button', { name: 'E-mail a portal invitation' }).waitFor();
      await page.goto(`${app.baseUrl}/dashboard`);
      assert.doesNotMatch(await stepText(), /Invite a contractor/);
      await context.close();
    });

    it('the accounts page fits a phone', async () => {
      const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
      const page = await context.newPage();
      await signIn(page, app, smtp, admin);
      await page.goto(`${app.baseUrl}/dashboard/accounts`);
      await page.getByRole('heading', { level: 1, name: 'Accounts and cards' }).waitFor();
      await assertNoHorizontalOverflow(page, 'accounts on a phone');
      await assertAccessible(page, 'accounts on a phone');
      await context.close();
    });
  });
}
