import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { uploadAndProcess } from '../operations/receipts/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { ublReceipt, undatedSlip } from '../support/receipts.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { assertAccessible, assertNoHorizontalOverflow, launchChromium, signIn } from './browser.ts';

let serial = 0;

for (const dialect of DIALECTS) {
  describe(`the receipts inbox, upload and correction pages in Chromium (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let browser: Browser;
    let finance: Caller;

    before(async () => {
      smtp = await startSmtpServer();
      // Every member signs in from 127.0.0.1: the per-client sign-in limit is raised for the suite.
      app = await startTestApp(dialect, {
        env: { SMTP_URL: smtp.url, ACCOUNTING_SIGN_IN_RATE_LIMIT: '1000/1m' },
      });
      app.services.config.publicUrl = app.baseUrl;
      finance = await createCaller(app, { role: 'finance' });
      browser = await launchChromium();
    });
    after(async () => {
      await browser.close();
      await app.close();
      await smtp.close();
    });

    it('uploads a receipt from the inbox page and shows its original beside the fields', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, app, smtp, finance);
      await page.goto(`${app.baseUrl}/dashboard/receipts`);
      await assertAccessible(page, 'receipts inbox');
      serial += 1;
      await page.getByLabel('Receipts or invoices').setInputFiles({
        name: 'coffee.xml',
        mimeType: 'application/xml',
        buffer: ublReceipt({
          id: `UP-${serial}-${dialect}`,
          merchant: 'Blue Bottle Coffee',
          date: '2026-01-15',
          amountMinor: 1190n,
        }),
      });
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByRole('heading', { name: 'Original' }).waitFor();
      await app.runJobs();
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Blue Bottle Coffee' }).waitFor();
      assert.match(await page.locator('dl.facts').first().innerText(), /11\.90 EUR/);
      // An e-invoice is drawn as an invoice (seller, lines, VAT, totals), its XML one click away.
      const invoice = page.getByRole('article', { name: 'Invoice as read' });
      await invoice.getByText('Blue Bottle Coffee').first().waitFor();
      assert.match(await invoice.locator('dl.totals').innerText(), /Total\s+11\.90 EUR/);
      assert.equal(await page.locator('iframe.original').count(), 0, 'no raw XML framed');
      const xml = page.getByRole('link', { name: /Show the e-invoice's XML/ });
      assert.match((await xml.getAttribute('href')) ?? '', /^\/dashboard\/receipts\/originals\//);
      // Every value read, with how sure the reader was (an e-invoice's values are certain).
      await page.getByText('Everything read from it, with how sure').click();
      assert.match(await page.locator('details dl.facts').innerText(), /Seller\s+Blue Bottle Coffee\s+sure/);
      await assertAccessible(page, 'receipt');
      await context.close();
    });

    it('uploads several files at once, says which were already in the inbox and names the refused ones', async () => {
      serial += 1;
      const invoice = (n: number) =>
        ublReceipt({
          id: `MULTI-${serial}-${n}-${dialect}`,
          merchant: `Shop ${n}`,
          date: `2026-02-0${n}`,
          amountMinor: 100n * BigInt(n),
        });
      // A member of its own: each sign-in spends one of the address's e-mailed links.
      const uploader = await createCaller(app, { role: 'finance', organizationId: finance.organizationId });
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, app, smtp, uploader);
      await page.goto(`${app.baseUrl}/dashboard/receipts`);
      // One file alone, then the same bytes again: its page says nothing new was added.
      await page
        .getByLabel('Receipts or invoices')
        .setInputFiles({ name: 'one.xml', mimeType: 'application/xml', buffer: invoice(1) });
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByRole('heading', { name: 'Original' }).waitFor();
      await page.goto(`${app.baseUrl}/dashboard/receipts`);
      await page
        .getByLabel('Receipts or invoices')
        .setInputFiles({ name: 'one-again.xml', mimeType: 'application/xml', buffer: invoice(1) });
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByText('This file was already in the inbox').waitFor();
      // Three at once, one of them already there: the list says how many arrived.
      await page.goto(`${app.baseUrl}/dashboard/receipts`);
      await page.getByLabel('Receipts or invoices').setInputFiles([
        { name: 'two.xml', mimeType: 'application/xml', buffer: invoice(2) },
        { name: 'three.xml', mimeType: 'application/xml', buffer: invoice(3) },
        { name: 'one-more-time.xml', mimeType: 'application/xml', buffer: invoice(1) },
      ]);
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.waitForURL(/uploaded=3&duplicates=1/);
      assert.match(
        await page.getByRole('status').first().innerText(),
        /2 files added to the inbox; they are being read\. 1 file was already in the inbox/,
      );
      await page.getByRole('link', { name: 'three.xml' }).waitFor();
      // A refused file is named with the reason, and the others still arrive.
      await page.getByLabel('Receipts or invoices').setInputFiles([
        { name: 'four.xml', mimeType: 'application/xml', buffer: invoice(4) },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a receipt') },
      ]);
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByText('1 of 2 uploaded; these were not:').waitFor();
      assert.match(
        await page.getByRole('listitem').filter({ hasText: 'notes.txt' }).innerText(),
        /^notes\.txt: \S/,
      );
      const four = await call(app.baseUrl, 'inbox.list', { limit: 50 }, { token: uploader.token });
      assert.ok(
        (four.data as { items: { file_name: string }[] }).items.some((i) => i.file_name === 'four.xml'),
        'the good file of the pair arrived',
      );
      await assertAccessible(page, 'receipts inbox after a partly refused upload');
      await context.close();
    });

    it('a receipt that needs review is confirmed beside its original, with the total typed as printed', async () => {
      const reviewer = await createCaller(app, { role: 'finance', organizationId: finance.organizationId });
      const slip = await undatedSlip(`Corner Bistro ${dialect}`);
      const item = await uploadAndProcess(app, reviewer, slip, 'bistro.pdf', 'application/pdf');
      assert.equal(item.state, 'needs_review', 'no date on the slip');
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, app, smtp, reviewer);
      await page.goto(`${app.baseUrl}/dashboard/receipts/${item.id}`);
      await page.getByText('no date found').waitFor();
      await page.getByText('Nothing from this receipt reaches the books until you confirm it.').waitFor();
      assert.equal(await page.getByLabel('Total to pay').inputValue(), '23.80');
      if (process.env.SCREENSHOT_DIR)
        await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/receipt-confirm.png`, fullPage: true });
      await assertAccessible(page, 'receipt to confirm');
      // A wrong currency is refused next to its input; the typed values stay; nothing is posted.
      await page.getByLabel('Date on the receipt').fill('2026-03-14');
      await page.getByLabel('Total to pay').fill('23,90');
      await page.getByLabel('Currency').fill('EURO');
      await page.getByRole('button', { name: 'Confirm and post to the books' }).click();
      await page.locator('#f-fix-currency-error').waitFor();
      assert.equal(await page.getByLabel('Total to pay').inputValue(), '23,90');
      const before = await call(app.baseUrl, 'inbox.get', { id: item.id }, { token: reviewer.token });
      assert.equal((before.data as { state: string }).state, 'needs_review');
      await page.getByLabel('Currency').fill('EUR');
      await page.getByRole('button', { name: 'Confirm and post to the books' }).click();
      await page.getByRole('status').getByText('Done:').waitFor();
      const after = await call(app.baseUrl, 'inbox.get', { id: item.id }, { token: reviewer.token });
      const confirmed = after.data as {
        state: string;
        date: string;
        total_minor: string;
        entry_id: string | null;
      };
      assert.equal(confirmed.state, 'ready');
      assert.equal(confirmed.date, '2026-03-14');
      assert.equal(confirmed.total_minor, '2390', '"23,90" typed as printed is 2390 cents');
      assert.ok(confirmed.entry_id, 'confirming posted the receipt entry');
      assert.match(await page.locator('dl.facts', { hasText: 'Kind' }).innerText(), /23\.90 EUR/);
      await page.getByText('Correct these values').waitFor();
      await context.close();
    });

    it('shows a photographed receipt fitted to its frame, with zoom and rotation', async () => {
      const photo = readFileSync(
        new URL('../receipts/extraction/fixtures/restaurant-en-bistro.webp', import.meta.url),
      );
      const viewer = await createCaller(app, { role: 'finance', organizationId: finance.organizationId });
      const item = await uploadAndProcess(app, viewer, photo, 'bistro.webp', 'image/webp');
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      await signIn(page, app, smtp, viewer);
      await page.goto(`${app.baseUrl}/dashboard/receipts/${item.id}`);
      const image = page.getByRole('img', { name: 'Original of bistro.webp' });
      await image.waitFor();
      const frameWidth = await page.locator('.viewer-frame').evaluate((el) => el.clientWidth);
      assert.ok(
        ((await image.boundingBox())?.width ?? Infinity) <= frameWidth + 1,
        'the photo fits its frame',
      );
      await page.getByRole('button', { name: 'Zoom in' }).click();
      assert.equal(await image.evaluate((el) => (el as { style: { width: string } }).style.width), '125%');
      await page.getByRole('button', { name: 'Rotate a quarter turn' }).click();
      assert.equal(
        await image.evaluate((el) => (el as { style: { transform: string } }).style.transform),
        'rotate(90deg)',
      );
      await page.getByRole('button', { name: 'Fit' }).click();
      assert.equal(await image.evaluate((el) => (el as { style: { width: string } }).style.width), '100%');
      await assertNoHorizontalOverflow(page, 'photographed receipt on a phone');
      await assertAccessible(page, 'photographed receipt');
      await context.close();
    });
  });
}
