import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { claimJob, emptyCounts, LEASE_MS, reportProgress } from '../../src/books/jobs-queue.ts';
import { cardAccount, cardTransaction } from '../operations/matching/helpers.ts';
import { upload } from '../operations/receipts/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { ublReceipt } from '../support/receipts.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { assertAccessible, assertNoHorizontalOverflow, launchChromium, signIn } from './browser.ts';

/**
 * Issue 30 part 6, "live work", and the sort and search of part 4, through the pages only: a
 * receipt uploaded from the inbox page is followed from being read to read, and a statement import
 * from waiting through running (its progress reported by another worker sharing the database) to
 * its counts, both in place: the page is never reloaded (a mark left on `window` survives). Lists
 * sort by date and amount both ways, the order kept across pages; the inbox is searched by
 * merchant, file name and a total as printed. Axe and a 390 px width on every state.
 */

/** A mark on the page's window: it survives anything but a navigation or reload. */
async function markWindow(page: Page): Promise<void> {
  await page.evaluate("window.liveMark = 'still this page'");
}
async function sameWindow(page: Page): Promise<boolean> {
  return (await page.evaluate('window.liveMark')) === 'still this page';
}

/** Axe, a phone's width, and screenshots (desktop, phone) when SCREENSHOT_DIR is set. */
async function checkPage(page: Page, label: string): Promise<void> {
  const shot = async (suffix: string) => {
    if (process.env.SCREENSHOT_DIR)
      await page.screenshot({
        path: `${process.env.SCREENSHOT_DIR}/live-${label.replace(/\W+/g, '-')}${suffix}.png`,
        fullPage: true,
      });
  };
  await assertAccessible(page, label);
  await shot('');
  await page.setViewportSize({ width: 390, height: 844 });
  await assertNoHorizontalOverflow(page, `${label} on a phone`);
  await shot('-phone');
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The texts of one column of the page's (first) table. */
async function column(page: Page, index: number): Promise<string[]> {
  return page
    .locator('table tbody tr')
    .evaluateAll(
      (rows, i) =>
        rows.map((row) => (row.children[i] as { innerText?: string } | undefined)?.innerText?.trim() ?? ''),
      index,
    );
}

for (const dialect of DIALECTS) {
  describe(`live work, sort and search in Chromium (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let browser: Browser;
    let finance: Caller;
    let page: Page;

    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(dialect, { env: { SMTP_URL: smtp.url } });
      app.services.config.publicUrl = app.baseUrl;
      finance = await createCaller(app, { role: 'finance' });
      browser = await launchChromium();
      const context = await browser.newContext();
      page = await context.newPage();
      await signIn(page, app, smtp, finance);
    });
    after(async () => {
      await browser.close();
      await app.close();
      await smtp.close();
    });

    it('a receipt uploaded from the page goes from being read to read without a reload', async () => {
      await page.goto(`${app.baseUrl}/dashboard/receipts`);
      await page.getByLabel('Receipts or invoices').setInputFiles({
        name: 'coffee.xml',
        mimeType: 'application/xml',
        buffer: ublReceipt({
          id: `LIVE-${dialect}`,
          merchant: 'Blue Bottle Coffee',
          date: '2026-01-15',
          amountMinor: 1190n,
        }),
      });
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      // The upload lands on the receipt's page, which follows the reading.
      await page.getByRole('heading', { level: 1, name: 'coffee.xml' }).waitFor();
      const status = page.locator('[data-live] [role=status]');
      assert.match(await status.innerText(), /Waiting to be read/);
      assert.equal(await status.getAttribute('aria-live'), 'polite');
      assert.equal(await page.locator('[data-live] progress').count(), 1, 'a real progress bar');
      await checkPage(page, 'receipt being read');
      await markWindow(page);

      await app.runJobs();
      await page.getByRole('heading', { level: 1, name: 'Blue Bottle Coffee' }).waitFor();
      assert.ok(await sameWindow(page), 'drawn in place, not reloaded');
      assert.match(await page.locator('.notice [role=status]').innerText(), /^Read: (ready|needs review)\.$/);
      assert.match(await page.locator('dl.facts', { hasText: 'Kind' }).innerText(), /11\.90 EUR/);
      assert.equal(await page.locator('[data-live]').count(), 0, 'nothing follows a finished read');
      assert.equal(await page.title(), 'Blue Bottle Coffee · Accounting');
      await checkPage(page, 'receipt read in place');
    });

    it('without script the page being read links a refresh and reloads itself until it is read', async () => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const plain = await context.newPage();
      await signIn(plain, app, smtp, finance);
      const bytes = ublReceipt({
        id: `PLAIN-${dialect}`,
        merchant: 'Paper Shop',
        date: '2026-01-16',
        amountMinor: 990n,
      });
      const res = await upload(app, finance, bytes, 'paper.xml', 'application/xml');
      const id = (res.data as { item: { id: string } }).item.id;
      await plain.goto(`${app.baseUrl}/dashboard/receipts/${id}`);
      await plain.getByRole('heading', { level: 1, name: 'paper.xml' }).waitFor();
      assert.equal(
        await plain.getByRole('link', { name: 'Refresh' }).getAttribute('href'),
        `/dashboard/receipts/${id}`,
      );
      await app.runJobs();
      // The <noscript> refresh reloads the page (every 3 s) until the read is there.
      await plain.getByRole('heading', { level: 1, name: 'Paper Shop' }).waitFor();
      assert.equal(await plain.locator('meta[http-equiv=refresh]').count(), 0, 'no refresh once read');
      await context.close();
    });

    it('an import shows its progress and ends with its counts without a reload', async () => {
      const account = await call(
        app.baseUrl,
        'accounts.create',
        { name: 'Checking', kind: 'checking', currency: 'EUR' },
        { token: finance.token },
      );
      assert.equal(account.status, 200, JSON.stringify(account.body));
      await page.goto(`${app.baseUrl}/dashboard/transactions`);
      await page.getByLabel('Statement file').setInputFiles({
        name: 'live.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          'Date,Description,Amount\n2026-01-15,Coffee Shop,-4.50\n2026-01-16,Client payment,1200.00\n2026-01-17,Paper,-9.99\n',
        ),
      });
      await page.getByRole('button', { name: 'Upload and import' }).click();
      await page.getByRole('heading', { level: 1, name: 'Import of live.csv' }).waitFor();
      const status = page.locator('[data-live] [role=status]');
      assert.match(await status.innerText(), /Waiting to start/);
      assert.equal(await page.locator('[data-live] progress').count(), 1);
      await checkPage(page, 'import waiting');
      await markWindow(page);

      // Another worker sharing the database takes the job and reports its first lines: the page,
      // polling the database through the catalog, shows them. Then that worker stops (its lease
      // lapses) and this process's job runner finishes the import.
      const now = app.clock.now();
      const job = await claimJob(app.services.db, 'statement_import', 'another-process', now);
      assert.ok(job, 'the import was waiting to be claimed');
      const counts = { ...emptyCounts(), read: 2, pending: 2 };
      assert.ok(
        await reportProgress(app.services.db.kysely, job, 'another-process', now, { counts, rejected: [] }),
      );
      await page
        .locator('[data-live] [role=status]', { hasText: 'Reading the statement: 2 lines read' })
        .waitFor();
      assert.equal(await page.locator('dd[data-live-field=read]').innerText(), '2');
      assert.equal(await page.locator('dd[data-live-field=state]').innerText(), 'Reading the statement');
      assert.equal(
        await page.locator('[data-live] progress').getAttribute('value'),
        null,
        'no total is known while it runs: the bar is indeterminate',
      );
      await checkPage(page, 'import running');

      app.clock.advance(LEASE_MS + 1000);
      await app.runJobs();
      await page.locator('.notice [role=status]', { hasText: /^Finished: 3 lines read: 3 added/ }).waitFor();
      assert.ok(await sameWindow(page), 'followed in place, not reloaded');
      assert.match(await page.locator('dl.facts').innerText(), /Added\s+3/);
      assert.equal(await page.locator('[data-live]').count(), 0);
      await checkPage(page, 'import finished in place');
    });

    it('the transactions list sorts by date and amount both ways, kept in the URL and across pages', async () => {
      const card = await cardAccount(app, finance);
      // 27 charges on distinct days and amounts: the order is known, and a second page exists.
      for (let i = 1; i <= 27; i++)
        await cardTransaction(
          app,
          finance,
          card,
          `2026-02-${String(i).padStart(2, '0')}`,
          `-${i}00`,
          `SHOP ${i}`,
        );
      await page.goto(`${app.baseUrl}/dashboard/transactions?cardId=${card.cardId}`);
      const amount = page.getByRole('columnheader', { name: /Amount/ });
      await amount.getByRole('link').click();
      await page.waitForURL(/sort=amount_desc/);
      assert.equal(await amount.getAttribute('aria-sort'), 'descending');
      assert.match(page.url(), new RegExp(`cardId=${card.cardId}`), 'the filter stays');
      assert.deepEqual((await column(page, 3)).slice(0, 2), ['-1.00 EUR', '-2.00 EUR']);
      await amount.getByRole('link').click();
      await page.waitForURL(/sort=amount_asc/);
      assert.equal(
        await page.getByRole('columnheader', { name: /Amount/ }).getAttribute('aria-sort'),
        'ascending',
      );
      assert.deepEqual((await column(page, 3)).slice(0, 2), ['-27.00 EUR', '-26.00 EUR']);
      await checkPage(page, 'transactions by amount');
      await page
        .getByRole('navigation', { name: 'Pagination' })
        .getByRole('link', { name: 'Next page' })
        .click();
      await page.waitForURL(/offset=25/);
      assert.match(page.url(), /sort=amount_asc/, 'the order stays on the next page');
      assert.deepEqual(await column(page, 3), ['-2.00 EUR', '-1.00 EUR']);
      assert.equal(await page.getByLabel('Order').inputValue(), 'amount_asc', 'the form shows the order');
      // The import form comes back to the same list after its work.
      assert.match(
        String(await page.locator('input[name=_back]').first().getAttribute('value')),
        /sort=amount_asc/,
      );

      // Oldest first from the form: the order and the filter in one go.
      await page.getByLabel('Order').selectOption('date_asc');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/sort=date_asc/);
      assert.deepEqual((await column(page, 0)).slice(0, 2), ['2026-02-01', '2026-02-02']);
      assert.equal(
        await page.getByRole('columnheader', { name: /Booked/ }).getAttribute('aria-sort'),
        'ascending',
      );
    });

    it('the inbox is searched by merchant, file name and total, and sorts both ways', async () => {
      const receipts: Array<[string, string, string, bigint]> = [
        ['hardware.xml', 'Hardware Corner', '2026-01-20', 4200n],
        ['books.xml', 'Bookshop Kiez', '2026-02-11', 123456n],
      ];
      for (const [file, merchant, date, amountMinor] of receipts) {
        const res = await upload(
          app,
          finance,
          ublReceipt({ id: `S-${file}-${dialect}`, merchant, date, amountMinor }),
          file,
          'application/xml',
        );
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      await app.runJobs();
      await page.goto(`${app.baseUrl}/dashboard/receipts`);
      const search = page.getByRole('searchbox', { name: 'Search' });
      await search.fill('bottle');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForURL(/search=bottle/);
      assert.deepEqual(await column(page, 2), ['Blue Bottle Coffee']);
      await checkPage(page, 'inbox searched');
      await page.getByRole('searchbox', { name: 'Search' }).fill('1.234,56');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForURL(/search=1\.234%2C56/);
      assert.deepEqual(await column(page, 2), ['Bookshop Kiez']);
      await page.getByRole('searchbox', { name: 'Search' }).fill('hardware.');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForURL(/search=hardware\./);
      assert.deepEqual(await column(page, 1), ['hardware.xml']);
      await page.getByRole('searchbox', { name: 'Search' }).fill('nothing like it');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByText('No receipt matches “nothing like it”.').waitFor();

      await page.getByRole('link', { name: 'Clear the search' }).click();
      await page.getByRole('columnheader', { name: /Total/ }).getByRole('link').click();
      await page.waitForURL(/sort=amount_desc/);
      assert.deepEqual(await column(page, 2), [
        'Bookshop Kiez',
        'Hardware Corner',
        'Blue Bottle Coffee',
        'Paper Shop',
      ]);
      await page.getByRole('columnheader', { name: /Date/ }).getByRole('link').click();
      await page.waitForURL(/sort=date_desc/);
      await page.getByRole('columnheader', { name: /Date/ }).getByRole('link').click();
      await page.waitForURL(/sort=date_asc/);
      assert.deepEqual(await column(page, 2), [
        'Blue Bottle Coffee',
        'Paper Shop',
        'Hardware Corner',
        'Bookshop Kiez',
      ]);
      assert.equal(
        await page.getByRole('columnheader', { name: /Date/ }).getAttribute('aria-sort'),
        'ascending',
      );
      // A state link keeps the order (and a search), and the upload comes back to the same list.
      await page
        .getByRole('navigation', { name: 'Receipts by state' })
        .getByRole('link', { name: 'Ready' })
        .click();
      await page.waitForURL(/state=ready/);
      assert.match(page.url(), /sort=date_asc/);
      assert.match(
        String(await page.locator('input[name=_back]').first().getAttribute('value')),
        /sort=date_asc/,
      );
      await checkPage(page, 'inbox sorted');
    });

    it('several receipts uploaded at once are followed on the inbox list until read, without a reload', async () => {
      await page.goto(`${app.baseUrl}/dashboard/receipts?sort=amount_asc`);
      await page.getByLabel('Receipts or invoices').setInputFiles(
        [1, 2].map((n) => ({
          name: `batch-${n}.xml`,
          mimeType: 'application/xml',
          buffer: ublReceipt({
            id: `BATCH-${n}-${dialect}`,
            merchant: `Batch Shop ${n}`,
            date: `2026-03-0${n}`,
            amountMinor: BigInt(n * 100),
          }),
        })),
      );
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      const status = page.locator('[data-live] [role=status]');
      await status.waitFor();
      assert.match(page.url(), /sort=amount_asc/, 'back on the same list');
      assert.equal(await status.innerText(), '2 of 2 receipts on this page are still being read.');
      assert.equal(await page.locator('[data-live] progress').getAttribute('max'), '2');
      await checkPage(page, 'inbox receipts being read');
      await markWindow(page);

      await app.runJobs();
      await page
        .locator('.notice [role=status]', { hasText: 'All 2 receipts on this page are read.' })
        .waitFor();
      assert.ok(await sameWindow(page), 'drawn in place, not reloaded');
      assert.equal(await page.locator('[data-live]').count(), 0);
      const merchants = await column(page, 2);
      assert.deepEqual(merchants.slice(0, 2), ['Batch Shop 1', 'Batch Shop 2'], 'read, in the same order');
      await checkPage(page, 'inbox receipts read in place');
    });
  });
}
