import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { assertAccessible, assertNoHorizontalOverflow, launchChromium, signIn } from './browser.ts';

/** A card statement imported by the page with its card, the transactions list filtered, the ledger worked through and exported. */
for (const dialect of DIALECTS) {
  describe(`transactions, the ledger and its export in Chromium (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let browser: Browser;
    let finance: Caller;

    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(dialect, { env: { SMTP_URL: smtp.url } });
      app.services.config.publicUrl = app.baseUrl;
      finance = await createCaller(app, { role: 'finance' });
      browser = await launchChromium();
    });
    after(async () => {
      await browser.close();
      await app.close();
      await smtp.close();
    });

    it('imports a card statement with its card, filters by card and status, and asks no receipt for money in', async () => {
      const account = await call(
        app.baseUrl,
        'accounts.create',
        { name: 'Company card', kind: 'credit_card', currency: 'EUR' },
        { token: finance.token },
      );
      assert.equal(account.status, 200, JSON.stringify(account.body));
      const accountId = (account.data as { id: string }).id;
      const card = await call(
        app.baseUrl,
        'cards.create',
        { accountId, holderMemberId: finance.memberId, lastFour: '4242', label: 'Travel card' },
        { token: finance.token },
      );
      assert.equal(card.status, 200, JSON.stringify(card.body));
      const cardId = (card.data as { id: string }).id;

      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, app, smtp, finance);
      await page.goto(`${app.baseUrl}/dashboard/transactions`);
      await page.getByLabel('Card', { exact: true }).last().selectOption(cardId);
      await page.getByLabel('Statement file').setInputFiles({
        name: 'card.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          [
            'Date,Description,Amount',
            ...Array.from(
              { length: 30 },
              (_, i) => `2026-02-${String((i % 28) + 1).padStart(2, '0')},SHOP ${i + 1} MUNICH,-${i + 1}.50`,
            ),
            '2026-02-27,REFUND SHOP 3 MUNICH,3.50',
          ].join('\n'),
        ),
      });
      await page.getByRole('button', { name: 'Upload and import' }).click();
      await page.getByRole('heading', { name: 'Import of card.csv' }).waitFor();
      await app.runJobs();
      await page.reload();
      assert.match(await page.locator('dl.facts').innerText(), /Added\s+31/);

      // Every line names no card, so each took the card chosen: the card filter finds them all.
      await page.goto(`${app.baseUrl}/dashboard/transactions`);
      await page.locator('#cardId').selectOption(cardId);
      await page.locator('#status').selectOption('unmatched');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(new RegExp(`cardId=${cardId}`));
      assert.match(await page.getByRole('status').first().innerText(), /Transactions 1 to 25$/);
      const refund = await page.getByRole('row').filter({ hasText: 'REFUND SHOP 3' }).innerText();
      assert.match(refund, /Company card\s+card •••• 4242/);
      assert.match(refund, /not needed/, 'money in asks for no receipt');
      assert.match(
        await page.getByRole('row').filter({ hasText: 'SHOP 28 MUNICH' }).innerText(),
        /missing/,
        'a purchase without a receipt says so',
      );
      await page.getByRole('link', { name: 'Next page' }).click();
      assert.match(
        await page.getByRole('status').first().innerText(),
        /Transactions 26 to 31 \(the last page\)/,
      );
      assert.match(page.url(), /status=unmatched/);
      await assertAccessible(page, 'transactions filtered by card');
      await page.setViewportSize({ width: 390, height: 844 });
      await assertNoHorizontalOverflow(page, 'transactions on a phone');
      await context.close();
    });

    it('the ledger pages through entries to review, keeps its place after Mark reviewed, and exports a CSV', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, app, smtp, finance);
      await page.goto(`${app.baseUrl}/dashboard/transactions`);
      await page.getByText('More than 25 entries wait for review.').waitFor();
      await page.getByRole('link', { name: 'Open the ledger' }).click();
      await page.getByRole('heading', { level: 1, name: 'Ledger' }).waitFor();
      await page.getByLabel('Text').fill('MUNICH');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByRole('link', { name: 'Next page' }).click();
      await page.waitForURL(/offset=25/);
      const rows = page.getByRole('table').locator('tbody tr');
      assert.equal(await rows.count(), 6);
      const description = await rows.first().locator('td').nth(1).innerText();
      if (process.env.SCREENSHOT_DIR)
        await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/ledger.png`, fullPage: true });
      await assertAccessible(page, 'ledger, second page');
      await rows.first().getByRole('button', { name: 'Mark reviewed' }).click();
      await page.getByText('Done: ').waitFor();
      // Back on the same page of the same search, one entry fewer to review.
      assert.match(page.url(), /search=MUNICH/);
      assert.match(page.url(), /offset=25/);
      assert.equal(await rows.count(), 5);
      assert.doesNotMatch(await page.getByRole('table').innerText(), new RegExp(`${description}\\b`));
      await page.locator('#status').selectOption('reviewed');
      await page.getByRole('button', { name: 'Filter' }).click();
      assert.match(await page.getByRole('table').innerText(), new RegExp(description));

      // Export February as CSV: the job's page, then the file.
      await page.getByLabel('From', { exact: true }).last().fill('2026-02-01');
      await page.getByLabel('To', { exact: true }).last().fill('2026-02-28');
      await page.getByRole('button', { name: 'Export as CSV' }).click();
      await page.getByRole('heading', { name: 'Export of 2026-02-01 to 2026-02-28' }).waitFor();
      await app.runJobs();
      await page.reload();
      const download = page.getByRole('link', { name: /^Download entries-/ });
      await download.waitFor();
      assert.match(await page.locator('dl.facts').innerText(), /Entries\s+31/);
      await assertAccessible(page, 'export done');
      const csv = await page.request.get(`${app.baseUrl}${await download.getAttribute('href')}`);
      assert.equal(csv.status(), 200);
      assert.match(csv.headers()['content-type'] ?? '', /^text\/csv/);
      assert.match(csv.headers()['content-disposition'] ?? '', /^attachment; filename="entries-/);
      assert.match(await csv.text(), /SHOP 30 MUNICH/);
      await context.close();
    });
  });
}
