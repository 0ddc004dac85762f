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
      // The page reloads itself while the job runs (every 2 s); a reload of ours could race that
      // navigation and be aborted, so wait for the page to show the finished import.
      // (hasText reads textContent, where a term and its value are not spaced apart.)
      await page.locator('dl.facts', { hasText: /Added\s*31(?!\d)/ }).waitFor();
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
    it('categorises an entry from the picker, adds a category, and changes ticked entries in one go, each on its own', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, app, smtp, finance);
      await page.goto(`${app.baseUrl}/dashboard/entries?search=MUNICH`);
      const rows = page.getByRole('table').locator('tbody tr');
      const entryIdOf = async (row: number) =>
        String(await rows.nth(row).getByRole('checkbox').getAttribute('value')).split(':')[0] ?? '';
      const entry = async (id: string) => {
        const got = await call(app.baseUrl, 'entries.get', { id }, { token: finance.token });
        return got.data as {
          revision: number;
          review_status: string;
          allocations: Array<{
            category_code: string;
            tax_rate: string;
            tax_minor: string;
            amount_minor: string;
          }>;
        };
      };

      // A category of our own, from the small form; the ledger comes back where it was.
      await page.getByLabel('Code').fill('6450');
      await page.getByLabel('Name').fill('Travel meals');
      await page.getByLabel('Kind').selectOption('expense');
      await page.getByLabel('Default tax rate (%)').fill('19');
      await page.getByRole('button', { name: 'Add category' }).click();
      await page.getByText('Done: ').waitFor();
      assert.match(page.url(), /search=MUNICH/);

      // A code the chart already has is refused beside its input, the rest of the form kept.
      await page.getByLabel('Code').fill('6400');
      await page.getByLabel('Name').fill('Software again');
      await page.getByLabel('Kind').selectOption('income');
      await page.getByRole('button', { name: 'Add category' }).click();
      await page.locator('#f-cat-code-error').waitFor();
      assert.match(
        await page.locator('#f-cat-code-error').innerText(),
        /already|has this code[\s\S]*category_code_taken/,
      );
      assert.equal(await page.getByLabel('Code').getAttribute('aria-invalid'), 'true');
      assert.equal(await page.getByLabel('Name').inputValue(), 'Software again');
      assert.equal(await page.getByLabel('Kind').inputValue(), 'income');
      assert.equal(await page.getByLabel('Text').inputValue(), 'MUNICH', 'the ledger keeps its search');
      await assertAccessible(page, 'category refused in place');

      // One entry from its row's picker: the whole amount on the new category, its tax at 19 %.
      const firstId = await entryIdOf(0);
      assert.equal((await entry(firstId)).allocations[0]?.category_code, '9999', 'uncategorised at first');
      await rows.first().getByRole('combobox').selectOption({ label: '6450 Travel meals' });
      await rows.first().getByRole('button', { name: 'Save' }).click();
      await page.getByText('Categorised 1 entry as 6450 Travel meals.').waitFor();
      const categorised = await entry(firstId);
      assert.equal(categorised.allocations.length, 1);
      assert.equal(categorised.allocations[0]?.category_code, '6450');
      assert.equal(categorised.allocations[0]?.tax_rate, '19');
      assert.notEqual(categorised.allocations[0]?.tax_minor, '0');
      assert.equal(categorised.review_status, 'unreviewed', 'categorising alone leaves the review open');
      assert.match(await rows.first().innerText(), /Travel meals/);

      // Nothing ticked, or no category chosen: said in words, nothing changed.
      await page.getByRole('button', { name: 'Mark ticked entries reviewed' }).click();
      await page.getByText('Tick at least one entry first.').waitFor();
      await rows.first().getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Categorise ticked entries' }).click();
      await page.getByText('Choose a category first.').waitFor();

      // The last page of the search: tick three, one of which someone else changes meanwhile.
      await page.goto(`${app.baseUrl}/dashboard/entries?search=MUNICH`);
      await page.getByRole('link', { name: 'Next page' }).click();
      await page.waitForURL(/offset=25/);
      const ids = [await entryIdOf(0), await entryIdOf(1), await entryIdOf(2)];
      assert.equal(await rows.count(), 5);
      await page.getByLabel('Tick every entry on this page').check();
      for (const row of [0, 1, 2, 3, 4]) assert.ok(await rows.nth(row).getByRole('checkbox').isChecked());
      for (const row of [3, 4]) await rows.nth(row).getByRole('checkbox').uncheck();
      const stale = await entry(ids[1] ?? '');
      const fees = (
        (await call(app.baseUrl, 'categories.list', { limit: 100 }, { token: finance.token })).data as {
          items: Array<{ id: string; code: string }>;
        }
      ).items.find((c) => c.code === '6100');
      const meanwhile = await call(
        app.baseUrl,
        'entries.update',
        {
          id: ids[1],
          expectedRevision: stale.revision,
          allocations: [{ categoryId: fees?.id, amountMinor: stale.allocations[0]?.amount_minor }],
        },
        { token: finance.token },
      );
      assert.equal(meanwhile.status, 200, JSON.stringify(meanwhile.body));
      const staleText = (await rows.nth(1).locator('td').nth(2).innerText()).trim();
      await page.getByLabel('Category', { exact: true }).selectOption({ label: '6700 Travel' });
      const form = (await page.evaluate(
        'Array.from(new FormData(document.getElementById("bulk")).entries())',
      )) as Array<[string, string]>;
      await page.getByRole('button', { name: 'Categorise and mark reviewed' }).click();
      await page.getByText('Categorised 2 entries as 6700 Travel and marked them reviewed.').waitFor();
      // The same filters and page, the failure named with its reason.
      assert.match(page.url(), /search=MUNICH/);
      assert.match(page.url(), /offset=25/);
      const alert = await page.getByRole('alert').innerText();
      assert.match(alert, /1 entry could not be changed/);
      assert.ok(alert.includes(staleText), `the failed entry is named: ${alert}`);
      assert.match(alert, /changed since this page was shown[\s\S]*revision_conflict/);
      for (const id of [ids[0], ids[2]]) {
        const done = await entry(id ?? '');
        assert.equal(done.review_status, 'reviewed');
        assert.equal(done.allocations[0]?.category_code, '6700');
      }
      const untouched = await entry(ids[1] ?? '');
      assert.equal(untouched.allocations[0]?.category_code, '6100', 'the change made meanwhile is kept');
      assert.equal(untouched.review_status, 'unreviewed');
      if (process.env.SCREENSHOT_DIR)
        await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/ledger-bulk.png`, fullPage: true });
      await assertAccessible(page, 'ledger after a bulk change');
      await page.setViewportSize({ width: 390, height: 844 });
      await assertNoHorizontalOverflow(page, 'ledger on a phone');
      if (process.env.SCREENSHOT_DIR)
        await page.screenshot({
          path: `${process.env.SCREENSHOT_DIR}/ledger-bulk-phone.png`,
          fullPage: true,
        });

      // The same form sent again (a double submit) replays each entry's call: nothing changes twice.
      const revisions = await Promise.all(ids.map(async (id) => (await entry(id ?? '')).revision));
      const again = await page.request.post(`${app.baseUrl}/dashboard/entries/bulk`, {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        data: new URLSearchParams([...form, ['do', 'both']]).toString(),
        maxRedirects: 0,
      });
      assert.equal(again.status(), 303);
      assert.match(String(again.headers().location), /bulkDone=2/);
      assert.deepEqual(await Promise.all(ids.map(async (id) => (await entry(id ?? '')).revision)), revisions);
      await context.close();
    });
  });
}
