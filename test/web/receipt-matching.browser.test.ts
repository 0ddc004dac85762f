import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { cardAccount, cardTransaction, paypalReceipt } from '../operations/matching/helpers.ts';
import { uploadAndProcess } from '../operations/receipts/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { auditRows } from '../support/audit.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { ublReceipt } from '../support/receipts.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { assertAccessible, launchChromium, signIn } from './browser.ts';

// Matching and consolidation in the receipt pages; the inbox, upload and correction pages are in
// receipts.browser.test.ts (two files, so that each stays well inside the per-file time limit).
let serial = 0;

for (const dialect of DIALECTS) {
  describe(`receipt matches and the consolidation review in Chromium (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let browser: Browser;
    let finance: Caller;
    let admin: Caller;

    before(async () => {
      smtp = await startSmtpServer();
      // Every member signs in from 127.0.0.1: the per-client sign-in limit is raised for the suite.
      app = await startTestApp(dialect, {
        env: { SMTP_URL: smtp.url, ACCOUNTING_SIGN_IN_RATE_LIMIT: '1000/1m' },
      });
      app.services.config.publicUrl = app.baseUrl;
      finance = await createCaller(app, { role: 'finance' });
      admin = await createCaller(app, { role: 'admin', organizationId: finance.organizationId });
      browser = await launchChromium();
    });
    after(async () => {
      await browser.close();
      await app.close();
      await smtp.close();
    });

    it('a suggestion shows its charge; Decline asks first and can be undone; confirming says what it matched, Unmatch undoes it', async () => {
      serial += 1;
      const card = await cardAccount(app, finance);
      const tx = await cardTransaction(app, finance, card, '2026-04-02', '-2380', 'SQ *RUBY TEA HOUSE 0412');
      const receipt = await uploadAndProcess(
        app,
        finance,
        ublReceipt({
          id: `TEA-${serial}-${dialect}`,
          merchant: 'Ruby Tea House',
          date: '2026-04-01',
          amountMinor: 2380n,
        }),
        'tea.xml',
        'application/xml',
      );
      const context = await browser.newContext();
      const page = await context.newPage();
      page.on('dialog', (dialog) => void dialog.accept());
      await signIn(page, app, smtp, finance);
      await page.goto(`${app.baseUrl}/dashboard/receipts/${receipt.id}`);
      const suggested = page.locator('section', {
        has: page.getByRole('heading', { name: 'Suggested transactions' }),
      });
      const row = await suggested.locator('tbody tr').first().innerText();
      assert.match(row, /2026-04-02 · -23\.80 EUR/);
      assert.match(row, /Card · card •••• \d{4}/);
      assert.match(row, /SQ \*RUBY TEA HOUSE 0412/);
      assert.match(await page.locator('dl.facts', { hasText: 'Kind' }).innerText(), /E-invoice \(UBL\)/);
      await assertAccessible(page, 'receipt with a suggestion');
      // Declining asks before it acts (Confirm match does not).
      const declineForm = suggested.locator('form[data-confirm]');
      assert.equal(await declineForm.count(), 1);
      assert.equal(await declineForm.getByRole('button').innerText(), 'Decline');

      // Declined, it moves to its own list, from which it can be suggested again.
      await declineForm.getByRole('button', { name: 'Decline' }).click();
      const declined = page.locator('section', {
        has: page.getByRole('heading', { name: 'Declined suggestions' }),
      });
      await declined.waitFor();
      assert.match(await declined.innerText(), /SQ \*RUBY TEA HOUSE 0412/);
      assert.equal(await suggested.locator('tbody tr').count(), 0);
      if (process.env.SCREENSHOT_DIR)
        await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/receipt-declined.png`, fullPage: true });
      await assertAccessible(page, 'receipt with a declined suggestion');
      await declined.getByRole('button', { name: 'Suggest again' }).click();
      await page.getByText('Done: the suggestion is offered again').waitFor();
      assert.equal(await page.getByRole('heading', { name: 'Declined suggestions' }).count(), 0);
      await suggested.getByRole('button', { name: 'Confirm match' }).click();
      const matched = page.locator('section', { has: page.getByRole('heading', { name: 'Matched to' }) });
      await matched.waitFor();
      assert.match(await matched.innerText(), /2026-04-02 · -23\.80 EUR[\s\S]*SQ \*RUBY TEA HOUSE 0412/);
      await matched.getByRole('button', { name: 'Unmatch' }).click();
      await page.getByText('Done: the receipt was detached from its transaction').waitFor();
      assert.equal(await page.getByRole('heading', { name: 'Matched to' }).count(), 0);
      const txNow = await call(app.baseUrl, 'transactions.get', { id: tx.id }, { token: finance.token });
      assert.equal((txNow.data as { status: string }).status, 'unmatched');

      await context.close();
    });

    it('a finance member confirms a consolidation after review; stale, unticked, CSRF-less and wrong-role attempts are refused', async () => {
      serial += 1;
      const card = await cardAccount(app, finance);
      const tx = await cardTransaction(
        app,
        finance,
        card,
        '2026-03-03',
        '-4990',
        'PAYPAL *SPOTIFY 4029357733',
      );
      const receipt = await paypalReceipt(app, finance, `PP-${serial}-${dialect}`);
      const review = `${app.baseUrl}/dashboard/consolidations?receiptEntryId=${receipt.entry_id}&targetEntryId=${tx.entry_id}`;
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, app, smtp, finance);
      // The receipt's page offers the card charge the preview accepts, and opens the review.
      await page.goto(`${app.baseUrl}/dashboard/receipts/${receipt.id}`);
      if (process.env.SCREENSHOT_DIR)
        await page.screenshot({
          path: `${process.env.SCREENSHOT_DIR}/receipt-candidates.png`,
          fullPage: true,
        });
      const choice = page.getByRole('radio', { name: /2026-03-03 · SPOTIFY · -49\.90 EUR/ });
      assert.ok(await choice.isChecked(), 'the nearest candidate is chosen');
      await assertAccessible(page, 'receipt with consolidation candidates');
      await page.getByRole('button', { name: 'Review consolidation' }).click();
      await page.waitForURL(review);
      await page.getByRole('heading', { name: 'Originals' }).waitFor();
      await assertAccessible(page, 'consolidation review');
      const reason = 'Same PayPal charge of 49.90 for Spotify on the card statement.';

      // Unticked "I reviewed the originals": refused, nothing recorded.
      await page.getByLabel('Reason').fill(reason);
      await page.getByRole('button', { name: 'Confirm consolidation' }).click();
      await page.getByRole('alert').waitFor();
      assert.match(
        await page.getByRole('alert').innerText(),
        /Tick “I reviewed the originals above” to go on/,
      );

      // Missing CSRF token: refused before the operation runs.
      await page.goto(review);
      type Field = { name: string; value: string };
      // Repeated fields (transactions, evidence ids) collapse to one here; the CSRF check comes first anyway.
      const pairs = await page
        .locator('form[action$="matching.receiptConsolidation.confirm"] input[type=hidden]')
        .evaluateAll((inputs) =>
          inputs.map((i): [string, string] => [(i as unknown as Field).name, (i as unknown as Field).value]),
        );
      const { _csrf: _dropped, ...withoutCsrf } = Object.fromEntries(pairs);
      const noCsrf = await page.request.post(
        `${app.baseUrl}/dashboard/actions/matching.receiptConsolidation.confirm`,
        {
          form: { ...withoutCsrf, reason, originalsReviewed: 'true' },
          maxRedirects: 0,
        },
      );
      assert.equal(noCsrf.status(), 403);
      assert.match(await noCsrf.text(), /csrf_failed/);

      // The preview goes stale while the page is open (the transaction changes): refused and reloaded.
      const note = await call(
        app.baseUrl,
        'transactions.update',
        { id: tx.id, expectedRevision: tx.revision, note: 'changed meanwhile' },
        { token: finance.token },
      );
      assert.equal(note.status, 200, JSON.stringify(note.body));
      await page.getByLabel('Reason').fill(reason);
      await page.getByLabel('I reviewed the originals above').check();
      await page.getByRole('button', { name: 'Confirm consolidation' }).click();
      await page.getByText('changed since you opened this review').waitFor();
      assert.match(page.url(), /stale=1/);
      const none = await app.services.db.kysely.selectFrom('receipt_consolidations').selectAll().execute();
      assert.equal(none.length, 0, 'nothing was confirmed');

      // The reloaded review confirms.
      await page.getByLabel('Reason').fill(reason);
      await page.getByLabel('I reviewed the originals above').check();
      await page.getByRole('button', { name: 'Confirm consolidation' }).click();
      await page.getByRole('status').getByText('Done: the consolidation was recorded').waitFor();
      const rows = await app.services.db.kysely.selectFrom('receipt_consolidations').selectAll().execute();
      assert.equal(rows.length, 1);
      const audit = await auditRows(app, {
        organizationId: finance.organizationId,
        operation: 'matching.receiptConsolidation.confirm',
      });
      assert.ok(audit.length >= 1);
      assert.ok(
        audit.every(
          (row) => row.transport === 'dashboard' && String(row.credential_id).startsWith('session:'),
        ),
      );

      // The review now shows what was recorded instead of the form.
      const result = page.locator('section', {
        has: page.getByRole('heading', { name: 'Consolidated', exact: true }),
      });
      await result.waitFor();
      assert.match(await result.innerText(), /by you/);
      assert.match(await result.innerText(), /Why\s+(same order|provider card settlement)/);
      assert.match(await result.innerText(), /Same PayPal charge of 49\.90/);
      assert.equal(await page.getByRole('button', { name: 'Confirm consolidation' }).count(), 0);
      if (process.env.SCREENSHOT_DIR)
        await page.screenshot({
          path: `${process.env.SCREENSHOT_DIR}/consolidation-done.png`,
          fullPage: true,
        });
      await assertAccessible(page, 'consolidation confirmed');
      await context.close();

      // An admin may confirm too (decision 332), but this pair is one already: the admin sees the result.
      const adminContext = await browser.newContext();
      const adminPage = await adminContext.newPage();
      await signIn(adminPage, app, smtp, admin);
      await adminPage.goto(review);
      await adminPage.getByText('by another member').waitFor();
      assert.equal(await adminPage.getByRole('button', { name: 'Confirm consolidation' }).count(), 0);
      await adminContext.close();
    });
  });
}
