import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { cardAccount, cardTransaction, paypalReceipt } from '../operations/matching/helpers.ts';
import { uploadAndProcess } from '../operations/receipts/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { auditRows } from '../support/audit.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { ublReceipt, undatedSlip } from '../support/receipts.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { assertAccessible, assertNoHorizontalOverflow, launchChromium, signIn } from './browser.ts';

let serial = 0;

for (const dialect of DIALECTS) {
  describe(`receipts and the consolidation review in Chromium (${dialect})`, () => {
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

    it('a suggestion shows its charge; confirming says what it matched, Unmatch undoes it; Decline asks first', async () => {
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

      await suggested.getByRole('button', { name: 'Confirm match' }).click();
      const matched = page.locator('section', { has: page.getByRole('heading', { name: 'Matched to' }) });
      await matched.waitFor();
      assert.match(await matched.innerText(), /2026-04-02 · -23\.80 EUR[\s\S]*SQ \*RUBY TEA HOUSE 0412/);
      await matched.getByRole('button', { name: 'Unmatch' }).click();
      await page.getByText('Done: Detach a receipt from its transaction').waitFor();
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
      assert.match(await page.getByRole('alert').innerText(), /originalsReviewed/);

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
      await page.getByRole('status').getByText('Done: Confirm a receipt consolidation').waitFor();
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
      await context.close();

      // An admin may confirm too (decision 332), but this pair is one association already.
      const adminContext = await browser.newContext();
      const adminPage = await adminContext.newPage();
      await signIn(adminPage, app, smtp, admin);
      await adminPage.goto(review);
      await adminPage.getByLabel('Reason').fill(reason);
      await adminPage.getByLabel('I reviewed the originals above').check();
      await adminPage.getByRole('button', { name: 'Confirm consolidation' }).click();
      await adminPage.getByRole('alert').waitFor();
      assert.match(
        await adminPage.getByRole('alert').innerText(),
        /already consolidated[\s\S]*invalid_state/,
      );
      await adminContext.close();
    });
  });
}
