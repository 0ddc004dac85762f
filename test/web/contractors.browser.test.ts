import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ok, signAs } from '../operations/contractors/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { assertAccessible, assertNoHorizontalOverflow, launchChromium, signIn } from './browser.ts';

/** Axe, a phone's width, and a screenshot when SCREENSHOT_DIR is set; the viewport is restored. */
async function check(page: Page, name: string): Promise<void> {
  await assertAccessible(page, name);
  if (process.env.SCREENSHOT_DIR)
    await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await assertNoHorizontalOverflow(page, `${name} on a phone`);
  if (process.env.SCREENSHOT_DIR)
    await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The contractor area's jobs done by a finance member through the pages alone (issue 30 part 1). */
for (const dialect of DIALECTS) {
  describe(`contractors: roles, templates, agreements, hours and payouts in Chromium (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let finance: Caller;
    let contractorId: string;
    let contractorPath: string;
    let day: string;

    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(dialect, { env: { SMTP_URL: smtp.url } });
      app.services.config.publicUrl = app.baseUrl;
      finance = await createCaller(app, { role: 'finance' });
      day = app.clock.now().toISOString().slice(0, 10);
      const contractor = await ok(app, finance, 'contractors.create', {
        displayName: 'Ada Work',
        legalName: 'Ada Work Ltd',
        email: 'ada.work@example.com',
      });
      contractorId = contractor.id;
      contractorPath = `${app.baseUrl}/dashboard/contractors/${contractorId}`;
      browser = await launchChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      page = await context.newPage();
      await signIn(page, app, smtp, finance);
    });
    after(async () => {
      await context.close();
      await browser.close();
      await app.close();
      await smtp.close();
    });

    const done = () => page.getByText('Done: ').waitFor();

    it('adds a job role, changes its rate and assigns it to a contractor', async () => {
      await page.goto(`${app.baseUrl}/dashboard/contractors`);
      await page
        .getByRole('navigation', { name: 'Contractors area' })
        .getByRole('link', { name: 'Job roles' })
        .click();
      await page.getByText('No job role yet.').waitFor();
      await page.locator('#role-name-new').fill('Bookkeeper');
      await page.locator('#role-rate-new').fill('40,00');
      await page.locator('#role-currency-new').fill('CAD');
      await page.locator('#role-cadence-new').selectOption('monthly');
      await page.getByRole('button', { name: 'Add role' }).click();
      await done();
      const row = page.getByRole('region', { name: 'Job roles' }).getByRole('row', { name: /Bookkeeper/ });
      assert.match(await row.innerText(), /Bookkeeper\s+40\.00 CAD\/h\s+Monthly\s+Active/);

      const edit = page.locator('details', { hasText: 'Change “Bookkeeper”' });
      await edit.getByText('Change “Bookkeeper”').click();
      await edit.getByLabel('Hourly rate').fill('45.50');
      await edit.getByRole('button', { name: 'Save role' }).click();
      await done();
      assert.match(await row.innerText(), /45\.50 CAD\/h/);

      const assign = page.getByRole('row', { name: /Ada Work/ });
      await assign.getByLabel('Role for Ada Work').selectOption({ label: 'Bookkeeper' });
      await assign.getByRole('button', { name: 'Assign' }).click();
      await done();
      assert.match(await page.getByRole('row', { name: /Ada Work/ }).innerText(), /Ada Work\s+Bookkeeper/);
      const stored = await ok(app, finance, 'contractors.get', { id: contractorId });
      const roles = await ok(app, finance, 'contractorOps.roles.list', {});
      const role = (roles.items as Array<{ id: string; hourly_rate_minor: string }>)[0];
      assert.equal(stored.job_role_id, role?.id);
      assert.equal(role?.hourly_rate_minor, '4550');
      await check(page, 'contractor-roles');

      await page.goto(contractorPath);
      assert.match(
        await page.getByRole('heading', { name: 'Job role and rate' }).locator('..').innerText(),
        /Role\s+Bookkeeper\s+Rate\s+45\.50 CAD\/h\s+Paid\s+Monthly/,
      );
    });

    it("changes the contractor's details and e-mail", async () => {
      await page.goto(contractorPath);
      await page.getByText('Change details').click();
      await page.getByLabel('Legal name').fill('Ada Work GmbH');
      await page.getByLabel('Country (optional)').fill('DE');
      await page.getByRole('button', { name: 'Save details' }).click();
      await done();
      await page.getByText('Change the e-mail address').click();
      await page.getByLabel('New e-mail').fill('ada@work.example');
      await page.getByRole('button', { name: 'Save e-mail' }).click();
      await done();
      assert.match(
        await page.locator('dl.facts').first().innerText(),
        /Legal name\s+Ada Work GmbH\s+E-mail\s+ada@work\.example\s+Country\s+DE/,
      );
      // Emptied, the country is cleared (sent as null), not kept.
      await page.getByText('Change details').click();
      await page.getByLabel('Country (optional)').fill('');
      await page.getByRole('button', { name: 'Save details' }).click();
      await done();
      const stored = await ok(app, finance, 'contractors.get', { id: contractorId });
      assert.deepEqual(
        [stored.legal_name, stored.email, stored.country],
        ['Ada Work GmbH', 'ada@work.example', null],
      );
      await page.getByText('Record a review').click();
      await page.getByLabel('Country of tax residency').fill('DE');
      await page.getByLabel('Identity confirmed').selectOption('true');
      await page.getByRole('button', { name: 'Record review' }).click();
      await done();
      assert.match(
        await page.getByRole('heading', { name: 'Tax profile' }).locator('..').innerText(),
        /Tax residency\s+DE\s+Services in Canada\s+No\s+Identity confirmed\s+Yes\s+Last reviewed\s+\d{4}-/,
      );
      // Portal access is the admin's field: a finance member is told so instead of offered it.
      assert.equal(await page.getByText('Only an admin may turn portal access off or on.').count(), 1);
      assert.equal(await page.locator('#edit-active').count(), 0);
    });

    it('writes a draft and uploads a PDF template, reads and downloads them', async () => {
      await page.goto(`${app.baseUrl}/dashboard/contractors`);
      await page.getByRole('link', { name: 'Agreement templates' }).click();
      await page.getByText('No agreement template yet.').waitFor();
      await page.locator('#draft-name').fill('Services agreement');
      await page
        .getByLabel('Text (Markdown)')
        .fill(
          '# Services agreement\n\n{{contractor.legalName}} works as {{role.name}} for {{organization.name}}.',
        );
      await page.getByRole('button', { name: 'Save draft' }).click();
      await done();

      const pdf = Buffer.from('%PDF-1.4\n% master agreement\n%%EOF\n', 'latin1');
      await page.locator('#upload-name').fill('Master agreement');
      await page.getByLabel('File', { exact: true }).setInputFiles({
        name: 'master.pdf',
        mimeType: 'application/pdf',
        buffer: pdf,
      });
      await page.getByRole('button', { name: 'Upload template' }).click();
      await done();
      const master = page.getByRole('row', { name: /Master agreement/ });
      assert.match(await master.innerText(), /Uploaded file\s+master\.pdf \(\d+ bytes\)/);
      const file = await page.request.get(
        `${app.baseUrl}${await master.getByRole('link', { name: 'Download' }).getAttribute('href')}`,
      );
      assert.equal(file.status(), 200);
      assert.match(file.headers()['content-disposition'] ?? '', /^attachment; filename="master\.pdf"/);
      assert.ok((await file.body()).equals(pdf), 'the same bytes come back');
      await check(page, 'agreement-templates');

      await page.getByRole('link', { name: 'Services agreement' }).click();
      await page.getByText('{{contractor.legalName}} works as {{role.name}}').waitFor();
      await check(page, 'agreement-template');
    });

    it('sends agreements from templates, shows who signed with the signed PDF, voids one after confirming', async () => {
      await page.goto(contractorPath);
      await page.getByLabel('Template').selectOption({ label: 'Services agreement' });
      await page.getByRole('button', { name: 'Send agreement' }).click();
      await done();
      await page.getByLabel('Template').selectOption({ label: 'Master agreement' });
      await page.getByLabel('Title the contractor sees (optional)').fill('Master agreement 2026');
      await page.getByRole('button', { name: 'Send agreement' }).click();
      await done();
      const agreements = page.getByRole('list', { name: 'Agreements' }).getByRole('listitem');
      assert.match(
        await agreements.filter({ hasText: 'Master agreement 2026' }).innerText(),
        /Sent, not signed yet\s+Download the document sent/,
      );

      // The contractor signs the first in the portal.
      const sent = await ok(app, finance, 'contractors.agreements.list', { contractorId, status: 'sent' });
      const services = (sent.items as Array<{ id: string; title: string; document_sha256: string }>).find(
        (a) => a.title === 'Services agreement',
      );
      assert.ok(services);
      await signAs(app, finance.organizationId, contractorId, services, 'Ada Lovelace');
      await page.reload();
      const signedRow = agreements.filter({ hasText: 'Services agreement' });
      assert.match(await signedRow.innerText(), /Signed by Ada Lovelace on \d{4}-\d\d-\d\d \d\d:\d\d/);
      const pdf = await page.request.get(
        `${app.baseUrl}${await signedRow.getByRole('link', { name: 'Download the signed PDF' }).getAttribute('href')}`,
      );
      assert.equal(pdf.status(), 200);
      assert.equal(pdf.headers()['content-type'], 'application/pdf');
      assert.ok((await pdf.body()).subarray(0, 5).equals(Buffer.from('%PDF-')));

      // Void asks first: dismissed, nothing changes; accepted, the agreement is voided with its reason.
      const master = agreements.filter({ hasText: 'Master agreement 2026' });
      await master.getByLabel('Reason for voiding').fill('Sent by mistake');
      let asked = '';
      page.once('dialog', (dialog) => {
        asked = dialog.message();
        void dialog.dismiss();
      });
      await master.getByRole('button', { name: 'Void' }).click();
      assert.match(asked, /Void this agreement\? It can no longer be signed/);
      assert.match(await master.innerText(), /Sent, not signed yet/);
      page.once('dialog', (dialog) => {
        assert.match(dialog.message(), /cannot be undone/);
        void dialog.accept();
      });
      await master.getByRole('button', { name: 'Void' }).click();
      await done();
      assert.match(await master.innerText(), /Voided on .*: Sent by mistake/);
      assert.equal(await master.getByRole('button', { name: 'Void' }).count(), 0);
    });

    it('approves and rejects submitted hours, the rejection with its reason', async () => {
      // One entry from the contractor's side, one recorded by the member on the page.
      await ok(app, finance, 'contractors.hours.submit', {
        contractorId,
        workDate: day,
        hours: '7.50',
        description: 'Month-end close',
      });
      // Home says hours wait, and leads to the contractor's hours.
      await page.goto(`${app.baseUrl}/dashboard`);
      const home = page.getByRole('heading', { name: 'Contractor hours to approve' }).locator('..');
      assert.match(await home.innerText(), new RegExp(`Ada Work\\s+${day}\\s+7\\.50\\s+Month-end close`));
      await home.getByRole('link', { name: 'Ada Work' }).click();
      await page.waitForURL(/#hours$/);
      await page.getByText('Record hours for Ada Work').click();
      await page.getByLabel('Day worked').fill(day);
      await page.getByLabel('Hours', { exact: true }).fill('2');
      await page.getByLabel('What was done').fill('Coffee with the team');
      await page.getByRole('button', { name: 'Record hours' }).click();
      await done();
      const waiting = page.getByRole('list', { name: 'Hours waiting for approval' }).getByRole('listitem');
      assert.equal(await waiting.count(), 2);
      const close = waiting.filter({ hasText: 'Month-end close' });
      await check(page, 'contractor-hours-waiting');
      assert.match(await close.innerText(), new RegExp(`${day} · 7\\.50 h · 341\\.25 CAD`));
      await close.getByRole('button', { name: 'Approve' }).click();
      await done();
      const coffee = waiting.filter({ hasText: 'Coffee with the team' });
      await coffee.getByLabel(/Reason for rejecting/).fill('Not billable');
      await coffee.getByRole('button', { name: 'Reject' }).click();
      await done();
      await page.getByText('No hours wait for approval.').waitFor();
      const all = page.getByRole('region', { name: 'All hours' });
      assert.match(
        await all.getByRole('row', { name: /Month-end close/ }).innerText(),
        /341\.25 CAD\s+Approved/,
      );
      assert.match(
        await all.getByRole('row', { name: /Coffee with the team/ }).innerText(),
        /Rejected: Not billable/,
      );
      const stored = await ok(app, finance, 'contractors.hours.list', { contractorId });
      assert.deepEqual((stored.items as Array<{ status: string }>).map((h) => h.status).sort(), [
        'approved',
        'rejected',
      ]);
    });

    it('creates a payout from the approved hours and marks it paid', async () => {
      await page.goto(contractorPath);
      await page.getByText('Approved hours not in a payout yet: 1 entry, 341.25 CAD.').waitFor();
      await page.getByLabel('Last day of the pay period').fill(day);
      await page.getByRole('button', { name: 'Create payout' }).click();
      await done();
      const row = page.getByRole('region', { name: 'Payouts' }).locator('tbody tr').first();
      assert.match(await row.innerText(), /341\.25 CAD\s+Not paid yet/);
      const toPay = page.getByRole('list', { name: 'Payouts to mark paid' }).getByRole('listitem');
      assert.equal(await toPay.count(), 1);
      await check(page, 'contractor-payout-to-pay');
      await toPay.getByLabel('Paid on').fill(day);
      await toPay.getByLabel('Payment reference').fill('WIRE-2026-11');
      await toPay.getByRole('button', { name: 'Mark paid' }).click();
      await done();
      assert.match(await row.innerText(), new RegExp(`341\\.25 CAD\\s+Paid\\s+${day}\\s+WIRE-2026-11`));
      assert.equal(await page.getByRole('list', { name: 'Payouts to mark paid' }).count(), 0);
      assert.match(
        await page
          .getByRole('region', { name: 'All hours' })
          .getByRole('row', { name: /Month-end close/ })
          .innerText(),
        /Paid/,
      );
      const stored = await ok(app, finance, 'contractors.payouts.list', { contractorId });
      assert.deepEqual(
        (stored.items as Array<{ status: string; reference: string }>).map((p) => [p.status, p.reference]),
        [['paid', 'WIRE-2026-11']],
      );
      await check(page, 'contractor');

      // The year's fees, paid on the clock's day, are in the tax year summary and its CSV.
      await page.getByRole('link', { name: 'All contractors' }).click();
      await page.getByRole('link', { name: 'Tax year summary' }).click();
      const fees = page.getByRole('row', { name: /Ada Work GmbH/ });
      assert.match(await fees.innerText(), /DE \(services in Canada: no\)\s+341\.25 CAD\s+1\s+None/);
      const csv = await page.request.get(
        `${app.baseUrl}${await page.getByRole('link', { name: 'Download as CSV' }).getAttribute('href')}`,
      );
      assert.equal(csv.status(), 200);
      assert.match(
        csv.headers()['content-disposition'] ?? '',
        new RegExp(`contractor-tax-summary-${day.slice(0, 4)}\\.csv`),
      );
      assert.match(await csv.text(), /Ada Work GmbH/);
      await check(page, 'contractor-tax-summary');
      await page.getByLabel('Year').fill(String(Number(day.slice(0, 4)) - 1));
      await page.getByRole('button', { name: 'Show' }).click();
      await page.getByText(`No payout was marked paid in ${Number(day.slice(0, 4)) - 1}.`).waitFor();

      // Nothing left to pay: the refusal is shown with its code, and nothing is created.
      await page.goto(contractorPath);
      await page.getByRole('button', { name: 'Create payout' }).click();
      await page.getByText('payout_empty').waitFor();
      assert.equal(
        ((await ok(app, finance, 'contractors.payouts.list', { contractorId })).items as []).length,
        1,
      );
    });
  });
}
