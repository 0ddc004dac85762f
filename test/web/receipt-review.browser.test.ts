import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { cardAccount, cardTransaction } from '../operations/matching/helpers.ts';
import { uploadAndProcess } from '../operations/receipts/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { ublReceipt } from '../support/receipts.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { assertAccessible, assertNoHorizontalOverflow, launchChromium, signIn } from './browser.ts';

/**
 * Issue 30 part 2, "review, correct": a receipt's fields are confirmed or corrected on its page,
 * beside the original, through the pages only (inbox.confirm). A refused value comes back with the
 * message next to its input and every typed value kept; a good one is saved and shown. A
 * transaction no suggestion offers is searched and attached by hand (matching.attach), the match
 * shows what it matched, and Unmatch (matching.detach) undoes it.
 */
for (const dialect of DIALECTS) {
  describe(`correcting a receipt's fields in Chromium (${dialect})`, () => {
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

    it('a wrong total is refused beside its input with the typed values kept; the corrected one is saved', async () => {
      const item = await uploadAndProcess(
        app,
        finance,
        ublReceipt({
          id: `FIX-${dialect}`,
          merchant: 'Blue Bottle Coffee',
          date: '2026-01-15',
          amountMinor: 1190n,
        }),
        'coffee.xml',
        'application/xml',
      );
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, app, smtp, finance);
      await page.goto(`${app.baseUrl}/dashboard/receipts/${item.id}`);
      await page.getByText('Correct these values').click();
      // The read values are filled in beside the original.
      assert.equal(await page.getByLabel('Merchant', { exact: true }).inputValue(), 'Blue Bottle Coffee');
      assert.equal(await page.getByLabel('Total to pay').inputValue(), '11.90', 'the total as printed');
      await assertAccessible(page, 'receipt with its correction form');

      await page.getByLabel('Merchant', { exact: true }).fill('Blue Bottle Coffee Berlin');
      // Words are no amount: refused in place, as typed.
      await page.getByLabel('Total to pay').fill('twelve fifty');
      await page.getByRole('button', { name: 'Save the corrections' }).click();
      const error = page.locator('#f-fix-totalMinor-error');
      await error.waitFor();
      assert.match(await error.innerText(), /is not an amount: type it as printed/);
      assert.equal(await page.getByLabel('Total to pay').getAttribute('aria-invalid'), 'true');
      // Everything typed is still there, the wrong value included, to be fixed in place.
      assert.equal(
        await page.getByLabel('Merchant', { exact: true }).inputValue(),
        'Blue Bottle Coffee Berlin',
      );
      assert.equal(await page.getByLabel('Total to pay').inputValue(), 'twelve fifty');
      await assertAccessible(page, 'receipt with a refused correction');
      await page.setViewportSize({ width: 390, height: 844 });
      await assertNoHorizontalOverflow(page, 'refused correction on a phone');
      await page.setViewportSize({ width: 1280, height: 900 });

      await page.getByLabel('Total to pay').fill('12,50');
      await page.getByRole('button', { name: 'Save the corrections' }).click();
      await page.getByRole('heading', { level: 1, name: 'Blue Bottle Coffee Berlin' }).waitFor();
      assert.match(await page.locator('dl.facts', { hasText: 'Kind' }).innerText(), /12\.50 EUR/);
      const got = await call(app.baseUrl, 'inbox.get', { id: item.id }, { token: finance.token });
      const data = got.data as { merchant: string; total_minor: string };
      assert.equal(data.merchant, 'Blue Bottle Coffee Berlin');
      assert.equal(data.total_minor, '1250');
      await context.close();
    });

    it('a transaction is found and attached by hand, the match says what it matched, and Unmatch undoes it', async () => {
      const item = await uploadAndProcess(
        app,
        finance,
        ublReceipt({
          id: `ATT-${dialect}`,
          merchant: 'Hardware Corner',
          date: '2026-02-10',
          amountMinor: 4200n,
        }),
        'hardware.xml',
        'application/xml',
      );
      const card = await cardAccount(app, finance);
      // Nothing would suggest it (another amount, a text unlike the merchant): only a person knows.
      const charge = await cardTransaction(app, finance, card, '2026-02-12', '-4350', 'SQ *HW CORNER 0042');
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, app, smtp, finance);
      await page.goto(`${app.baseUrl}/dashboard/receipts/${item.id}`);
      await page.getByLabel('Search open transactions').fill('hw corner');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      const hit = page.locator('#attach tr', { hasText: 'SQ *HW CORNER 0042' });
      await hit.waitFor();
      assert.match(await hit.innerText(), /2026-02-12 · -43\.50 EUR/);
      assert.match(await hit.innerText(), /card •••• 4242/);
      await assertAccessible(page, 'receipt with transaction search results');
      await page.setViewportSize({ width: 390, height: 844 });
      await assertNoHorizontalOverflow(page, 'transaction search on a phone');
      await page.setViewportSize({ width: 1280, height: 900 });
      await hit.getByRole('button', { name: 'Attach' }).click();

      const matched = page.locator('section', { has: page.getByRole('heading', { name: 'Matched to' }) });
      await matched.waitFor();
      assert.match(await matched.innerText(), /2026-02-12 · -43\.50 EUR/);
      assert.match(await matched.innerText(), /SQ \*HW CORNER 0042/);
      assert.equal(await page.locator('#attach').count(), 0, 'no attach search once matched');
      const got = await call(app.baseUrl, 'inbox.get', { id: item.id }, { token: finance.token });
      assert.equal((got.data as { transaction_id: string }).transaction_id, charge.id);

      page.once('dialog', (dialog) => void dialog.accept());
      await matched.getByRole('button', { name: 'Unmatch' }).click();
      await page.locator('#attach').waitFor();
      assert.equal(await page.getByRole('heading', { name: 'Matched to' }).count(), 0);
      const after = await call(app.baseUrl, 'inbox.get', { id: item.id }, { token: finance.token });
      assert.equal((after.data as { transaction_id: string | null }).transaction_id, null);
      await context.close();
    });
  });
}
