import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ok } from '../operations/contractors/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { assertAccessible, launchChromium } from './browser.ts';
import { type Joined, joinedContractor, portalLinkIn } from './portal-client.ts';

/** Signs in as a contractor would: the form, the mail from the SMTP peer, the link, the button. */
async function signIn(page: Page, app: TestApp, smtp: TestSmtpServer, email: string): Promise<void> {
  const count = smtp.messages.length;
  await page.goto(`${app.baseUrl}/portal/hours`);
  await page.getByLabel('Your e-mail address').fill(email);
  await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await page.getByText('a sign-in link is on its way').waitFor();
  const message = await smtp.waitFor(
    (m) => smtp.messages.indexOf(m) >= count && JSON.stringify(m.to ?? '').includes(email),
  );
  await page.goto(portalLinkIn(message.text ?? ''));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'My hours' }).waitFor();
}

for (const dialect of DIALECTS) {
  describe(`contractor portal in Chromium (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let browser: Browser;
    let admin: Caller;
    let ada: Joined;
    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(dialect, {
        env: { SMTP_URL: smtp.url, ACCOUNTING_SIGN_IN_RATE_LIMIT: '1000/1m' },
      });
      app.services.config.publicUrl = app.baseUrl;
      admin = await createCaller(app);
      ada = await joinedContractor(app, admin, 'Ada');
      browser = await launchChromium();
    });
    after(async () => {
      await browser.close();
      await app.close();
      await smtp.close();
    });

    it('signs in from the e-mailed link, submits hours, signs and downloads the agreement, sees payments', async () => {
      const template = await ok(app, admin, 'contractors.templates.createDraft', {
        name: 'Services agreement',
        markdown:
          '# Services agreement\n\n{{contractor.legalName}} provides bookkeeping to {{organization.name}}.',
      });
      const agreement = await ok(app, admin, 'contractors.agreements.send', {
        contractorId: ada.id,
        templateId: template.id,
      });
      const context = await browser.newContext({ acceptDownloads: true });
      const page = await context.newPage();
      await signIn(page, app, smtp, ada.email);
      await assertAccessible(page, 'my hours');

      await page.getByLabel('Day worked').fill('2026-09-21');
      await page.getByLabel('Hours').fill('7.25');
      await page.getByLabel('What you did').fill('Month-end close');
      await page.getByRole('button', { name: 'Submit hours' }).click();
      await page.getByText('Hours submitted.').waitFor();
      const row = page.getByRole('row', { name: /Month-end close/ });
      assert.match(await row.innerText(), /7\.25\s+Month-end close\s+290\.00 CAD\s+submitted/);
      const hours = await ok(app, admin, 'contractors.hours.list', { contractorId: ada.id });
      const submitted = (hours.items as Array<{ id: string; revision: number }>)[0];
      assert.ok(submitted);
      await ok(app, admin, 'contractors.hours.reject', {
        id: submitted.id,
        expectedRevision: submitted.revision,
        reason: 'Split it by client please',
      });
      await page.reload();
      assert.match(
        await page.getByRole('row', { name: /Month-end close/ }).innerText(),
        /rejected: Split it by client please/,
      );

      await page.getByRole('link', { name: 'My agreements' }).click();
      await page.getByRole('link', { name: 'Read and sign' }).click();
      await page.getByText('Ada Legal provides bookkeeping to Test org.').waitFor();
      await assertAccessible(page, 'an agreement');
      await page.getByLabel('Your full name').fill('Ada Lovelace');
      await page.getByLabel(/I have read this agreement/).check();
      await page.getByRole('button', { name: 'Sign agreement' }).click();
      await page.getByText('Agreement signed.').waitFor();
      await page.getByText('Signed by Ada Lovelace').waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download the signed PDF' }).click(),
      ]);
      assert.equal(download.suggestedFilename(), 'Services agreement (signed).pdf');
      const path = await download.path();
      const text = execFileSync('pdftotext', ['-layout', path, '-']).toString('utf8');
      assert.match(text, /Ada Legal provides bookkeeping to Test org\./);
      assert.match(text, /Signed by: Ada Lovelace/);
      assert.match(text, /Client address: 127\.0\.0\.1/);
      assert.ok(text.includes(String(agreement.document_sha256)));
      assert.ok(readFileSync(path).subarray(0, 5).equals(Buffer.from('%PDF-')));
      const stored = await ok(app, admin, 'contractors.agreements.get', { id: agreement.id });
      assert.deepEqual(
        [stored.status, stored.signed_name, stored.signed_address],
        ['signed', 'Ada Lovelace', '127.0.0.1'],
      );

      const payout = await ok(app, admin, 'contractors.payouts.create', {
        contractorId: ada.id,
        periodEnd: '2026-09-30',
        fixedAmounts: [{ description: 'Retainer', amountMinor: '123456' }],
      });
      await ok(app, admin, 'contractors.payouts.markPaid', {
        id: payout.id,
        expectedRevision: 1,
        paidOn: '2026-10-01',
        reference: 'WIRE-77',
      });
      await page.getByRole('link', { name: 'My payments' }).click();
      const paid = await page.getByRole('row', { name: /WIRE-77/ }).innerText();
      assert.match(paid, /2026-09-01 to 2026-09-30\s+1,234\.56 CAD\s+paid\s+2026-10-01\s+WIRE-77/);
      await assertAccessible(page, 'my payments');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByText('You are signed out.').waitFor();
      await context.close();
    });
  });
}
