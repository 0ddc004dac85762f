import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { linkOf } from '../invitations/helpers.ts';
import { ok } from '../operations/contractors/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { assertAccessible, assertNoHorizontalOverflow, launchChromium } from './browser.ts';
import { type Joined, joinedContractor, portalLinkIn } from './portal-client.ts';

const SHOTS = process.env.SCREENSHOT_DIR;

/** The page at desktop width, then at a phone's (390 px): accessible, no sideways scrolling. */
async function checkPage(page: Page, name: string): Promise<void> {
  await assertAccessible(page, name);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/portal-${name}.png`, fullPage: true });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await assertNoHorizontalOverflow(page, `${name} on a phone`);
  await assertAccessible(page, `${name} on a phone`);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/portal-${name}-phone.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}

const AGREEMENT_MARKDOWN = [
  '# Services agreement',
  '',
  'Between **{{organization.name}}** and _{{contractor.legalName}}_, dated {{date}}.',
  '',
  '## Duties',
  '',
  '- Monthly *bookkeeping*',
  '- Payroll, see [the handbook](https://example.com/handbook)',
  '- Never [this](javascript:alert(1)) <script>alert(1)</script>',
  '',
  '1. Invoices monthly',
  '2. Payment within 30 days',
].join('\n');

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

    it('accepting the invitation signs in; Markdown drawn; hours with a decimal comma; times on the organization clock', async () => {
      const org = await ok(app, admin, 'admin.organization.get', {});
      await ok(app, admin, 'admin.organization.update', {
        expectedRevision: org.revision,
        timeZone: 'Europe/Berlin',
      });
      const role = await ok(app, admin, 'contractorOps.roles.save', {
        name: 'Bookkeeper',
        hourlyRateMinor: '4000',
        currency: 'EUR',
        payCadence: 'monthly',
      });
      const email = `grace.${Math.random().toString(36).slice(2, 8)}@example.com`;
      const grace = await ok(app, admin, 'contractors.create', {
        displayName: 'Grace',
        legalName: 'Grace Hopper',
        email,
        jobRoleId: role.id,
      });
      await ok(app, admin, 'contractors.invite', { id: grace.id, expectedRevision: grace.revision });
      const context = await browser.newContext({ acceptDownloads: true });
      const page = await context.newPage();

      // From "accepted" straight to the portal: one press, signed in, on My hours.
      await page.goto(await linkOf(app, admin, grace.id));
      await page.getByRole('button', { name: 'Accept' }).click();
      await page.getByRole('heading', { name: 'My hours' }).waitFor();
      await page
        .getByText('Welcome, Grace. You joined the contractor portal of Test org and are signed in.')
        .waitFor();
      assert.equal(new URL(page.url()).pathname, '/portal/hours');
      const cookies = await context.cookies();
      const session = cookies.find((c) => c.name === 'acct_contractor');
      assert.ok(session, 'the portal session cookie');
      assert.deepEqual([session.httpOnly, session.sameSite], [true, 'Lax']);
      await checkPage(page, 'joined');

      // Hours typed with a decimal comma.
      await page.getByLabel('Day worked').fill('2026-09-21');
      await page.getByLabel('Hours').fill('6,25');
      await page.getByLabel('What you did').fill('Reconciliation');
      await page.getByRole('button', { name: 'Submit hours' }).click();
      await page.getByText('Hours submitted.').waitFor();
      assert.match(
        await page.getByRole('row', { name: /Reconciliation/ }).innerText(),
        /6\.25\s+Reconciliation\s+250\.00 EUR\s+submitted/,
      );

      // The agreement: Markdown drawn, nothing raw, the sign form after the document.
      const template = await ok(app, admin, 'contractors.templates.createDraft', {
        name: 'Services agreement',
        markdown: AGREEMENT_MARKDOWN,
      });
      const agreement = await ok(app, admin, 'contractors.agreements.send', {
        contractorId: grace.id,
        templateId: template.id,
      });
      await page.getByRole('link', { name: 'My agreements' }).click();
      // Sent at 2026-... UTC, shown on Berlin's clock with the zone named.
      await page
        .getByRole('cell', { name: /\(Europe\/Berlin\)$/ })
        .first()
        .waitFor();
      await page.getByRole('link', { name: 'Read and sign' }).click();
      const doc = page.getByRole('article', { name: 'Services agreement' });
      await doc.getByRole('heading', { level: 2, name: 'Services agreement' }).waitFor();
      await doc.getByRole('heading', { level: 3, name: 'Duties' }).waitFor();
      assert.equal(await doc.locator('strong').first().innerText(), 'Test org');
      assert.equal(await doc.locator('em').first().innerText(), 'Grace Hopper');
      assert.equal(await doc.locator('ul > li').count(), 3);
      assert.equal(await doc.locator('ol > li').count(), 2);
      assert.equal(
        await doc.getByRole('link', { name: 'the handbook' }).getAttribute('href'),
        'https://example.com/handbook',
      );
      assert.equal(await doc.locator('a').count(), 1, 'the javascript: link is not a link');
      assert.equal(await doc.locator('script').count(), 0);
      const shown = await doc.innerText();
      assert.doesNotMatch(shown, /^#|\*\*|(^|\s)_Grace/m);
      assert.match(shown, /<script>alert\(1\)<\/script>/, 'HTML in the draft is shown as text');
      // Node.DOCUMENT_POSITION_FOLLOWING (4): the form comes after the document.
      const order = Number(
        await page.evaluate(
          "document.querySelector('article.agreement').compareDocumentPosition(document.querySelector('form[action$=\"/sign\"]'))",
        ),
      );
      assert.ok(order & 4, 'the sign form follows the document');
      await checkPage(page, 'agreement');

      await page.getByLabel('Your full name').fill('Grace Hopper');
      await page.getByLabel(/I have read this agreement/).check();
      await page.getByRole('button', { name: 'Sign agreement' }).click();
      await page.getByText('Agreement signed.').waitFor();
      await page
        .getByText(/Signed by Grace Hopper on \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(Europe\/Berlin\)/)
        .waitFor();
      await checkPage(page, 'agreement-signed');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download the signed PDF' }).click(),
      ]);
      const text = execFileSync('pdftotext', ['-layout', await download.path(), '-']).toString('utf8');
      assert.match(text, /^\s*Duties$/m);
      assert.match(text, /^\s*\u2022\s+Monthly bookkeeping$/m);
      assert.match(text, /^\s*1\.\s+Invoices monthly$/m);
      assert.match(text, /Between Test org and Grace Hopper/);
      assert.doesNotMatch(text.split('Signature page')[0] ?? '', /\*\*|^\s*#/m);
      assert.ok(text.includes(String(agreement.document_sha256)));

      await page.getByRole('link', { name: 'My payments' }).click();
      await checkPage(page, 'payments');
      await context.close();
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
