import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { makeContractor, ok } from '../operations/contractors/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { assertAccessible, assertNoHorizontalOverflow, launchChromium, signIn } from './browser.ts';

/**
 * Errors in place, in words (issue 30 part 5), through the pages at phone width: refused forms
 * come back as their page with what was typed and the message beside the field, worded for
 * people with the code and request id for support; a role refusal says which role may; the Done
 * line says what happened; unknown addresses and records answer the 404 page.
 */
for (const dialect of DIALECTS) {
  describe(`errors in place, in words, in Chromium (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let browser: Browser;
    let admin: Caller;
    let finance: Caller;

    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(dialect, { env: { SMTP_URL: smtp.url } });
      app.services.config.publicUrl = app.baseUrl;
      admin = await createCaller(app, { role: 'admin' });
      finance = await createCaller(app, { role: 'finance', organizationId: admin.organizationId });
      browser = await launchChromium();
    });
    after(async () => {
      await browser.close();
      await app.close();
      await smtp.close();
    });

    /** The refused control: invalid, described by its message, the message in words with support facts. */
    async function assertRefusedBeside(page: Page, inputId: string, words: RegExp, label: string) {
      const input = page.locator(`#${inputId}`);
      assert.equal(await input.getAttribute('aria-invalid'), 'true', `${label}: aria-invalid`);
      const described = (await input.getAttribute('aria-describedby')) ?? '';
      assert.ok(described.split(' ').includes(`${inputId}-error`), `${label}: described by ${described}`);
      const message = await page.locator(`#${inputId}-error`).innerText();
      assert.match(message, words, label);
      assert.match(message, /error code \S+ · request id req_/, `${label}: code and request id`);
      await assertAccessible(page, label);
      await assertNoHorizontalOverflow(page, label);
      await shot(page, label);
    }

    /** With SCREENSHOT_DIR set, the state as a person sees it (the brief's look before done). */
    async function shot(page: Page, label: string) {
      if (process.env.SCREENSHOT_DIR)
        await page.screenshot({
          path: `${process.env.SCREENSHOT_DIR}/errors-${label.replace(/\W+/g, '-')}.png`,
          fullPage: true,
        });
    }

    it('refused forms come back in place with the input kept and the message beside the field; Done says what happened', async () => {
      const taken = await makeContractor(app, admin, { email: 'taken@example.test' });
      assert.ok(taken.id);
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await signIn(page, app, smtp, admin);

      // A job role with words for a rate: the roles page again, the rate refused beside its input.
      await page.goto(`${app.baseUrl}/dashboard/contractors/roles`);
      await page.getByLabel('Name', { exact: true }).last().fill('Designer');
      await page.locator('#role-rate-new').fill('forty');
      await page.locator('#role-currency-new').fill('EUR');
      await page.locator('#role-cadence-new').selectOption('weekly');
      await page.getByRole('button', { name: 'Add role' }).click();
      await page.getByRole('heading', { level: 1, name: 'Job roles' }).waitFor();
      await assertRefusedBeside(page, 'role-rate-new', /"forty" is not an amount/, 'job role refused');
      assert.equal(await page.locator('#role-name-new').inputValue(), 'Designer');
      assert.equal(await page.locator('#role-currency-new').inputValue(), 'EUR');
      assert.equal(await page.locator('#role-cadence-new').inputValue(), 'weekly');
      // Corrected, it is saved, and the Done line says so in words.
      await page.locator('#role-rate-new').fill('40,00');
      await page.getByRole('button', { name: 'Add role' }).click();
      await page.getByRole('status').getByText('Done: the job role was saved.').waitFor();
      assert.equal(await page.locator('[aria-invalid="true"]').count(), 0);

      // Changed meanwhile by someone else: the folded "Change" form comes back open, the typed
      // rate kept, the conflict said above its fields (it names none of them).
      const roles = await ok(app, admin, 'contractorOps.roles.list', { limit: 10 });
      const role = (roles.items as Array<{ id: string; revision: number }>)[0];
      assert.ok(role);
      await page.getByText('Change “Designer”').click();
      await page.locator(`#role-rate-${role.id}`).fill('45,00');
      await ok(app, admin, 'contractorOps.roles.save', {
        id: role.id,
        expectedRevision: role.revision,
        description: 'Changed over the API',
      });
      const [conflict] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/dashboard/actions/contractorOps.roles.save')),
        page.getByRole('button', { name: 'Save role' }).click(),
      ]);
      assert.equal(conflict.status(), 409);
      const edit = page.locator('details.edit', { hasText: 'Change “Designer”' });
      assert.equal(await edit.getAttribute('open'), '');
      assert.match(
        await edit.getByRole('alert').innerText(),
        /Someone changed this record[\s\S]*revision_conflict/,
      );
      assert.equal(await page.locator(`#role-rate-${role.id}`).inputValue(), '45,00');
      await assertAccessible(page, 'conflict in a folded form');
      await assertNoHorizontalOverflow(page, 'conflict in a folded form');
      await shot(page, 'conflict in a folded form');

      // A contractor whose e-mail another has: the directory again, the message beside E-mail.
      await page.goto(`${app.baseUrl}/dashboard/contractors`);
      await page.locator('#contractor-name').fill('Grace Hopper');
      await page.locator('#contractor-legal-name').fill('Grace B. Hopper');
      await page.locator('#contractor-email').fill('taken@example.test');
      await page.getByRole('button', { name: 'Add contractor' }).click();
      await page.getByRole('heading', { level: 1, name: 'Contractors' }).waitFor();
      await assertRefusedBeside(
        page,
        'contractor-email',
        /Another contractor in this organization has this email/,
        'contractor refused',
      );
      assert.equal(await page.locator('#contractor-name').inputValue(), 'Grace Hopper');
      assert.equal(await page.locator('#contractor-legal-name').inputValue(), 'Grace B. Hopper');

      // A member who is one already: the administration page again, the chosen role kept.
      const { email } = await app.services.db.kysely
        .selectFrom('members')
        .select('email')
        .where('id', '=', finance.memberId)
        .executeTakeFirstOrThrow();
      await page.goto(`${app.baseUrl}/dashboard/admin`);
      await page.locator('#f-member-email').fill(email);
      await page.locator('#f-member-name').fill('Second Finance');
      await page.locator('#f-member-role').selectOption('admin');
      await page.getByRole('button', { name: 'Add member' }).click();
      await page.getByRole('heading', { level: 1, name: 'Administration' }).waitFor();
      await assertRefusedBeside(page, 'f-member-email', /already exists/, 'member refused');
      assert.equal(await page.locator('#f-member-name').inputValue(), 'Second Finance');
      assert.equal(await page.locator('#f-member-role').inputValue(), 'admin');

      // A text file that says it is a PDF: the template page again, the file refused in words.
      await page.goto(`${app.baseUrl}/dashboard/contractors/templates`);
      await page.locator('#upload-name').fill('Services agreement');
      await page.locator('#upload-file').setInputFiles({
        name: 'agreement.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('not a pdf at all'),
      });
      await page.getByRole('button', { name: 'Upload template' }).click();
      await page.locator('#upload-file-error').waitFor();
      await assertRefusedBeside(
        page,
        'upload-file',
        /^This file is not really a PDF document/,
        'template refused',
      );
      assert.equal(await page.locator('#upload-name').inputValue(), 'Services agreement');
      assert.doesNotMatch(await page.locator('main').innerText(), /contentBase64|\(field /);

      // A statement with the card of another account: the transactions page again, the account
      // and card chosen kept, the refusal beside the card.
      const bank = await ok(app, admin, 'accounts.create', {
        name: 'Bank',
        kind: 'checking',
        currency: 'EUR',
      });
      const other = await ok(app, admin, 'accounts.create', {
        name: 'Amex',
        kind: 'credit_card',
        currency: 'EUR',
      });
      const card = await ok(app, admin, 'cards.create', {
        accountId: other.id,
        holderMemberId: admin.memberId,
        lastFour: '1005',
      });
      await page.goto(`${app.baseUrl}/dashboard/transactions`);
      await page.locator('#f-account').selectOption(bank.id);
      await page.locator('#f-card').selectOption(card.id);
      await page.locator('#f-file').setInputFiles({
        name: 'statement.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('Date,Description,Amount\n2026-01-15,Coffee Shop,-4.50\n'),
      });
      await page.getByRole('button', { name: 'Upload and import' }).click();
      await page.locator('#f-card-error').waitFor();
      await assertRefusedBeside(
        page,
        'f-card',
        /^The card you chose cannot be used: it was removed meanwhile, or it does not go with your other choices/,
        'statement refused',
      );
      assert.equal(await page.locator('#f-account').inputValue(), bank.id);
      assert.equal(await page.locator('#f-card').inputValue(), card.id);
      await context.close();
    });

    it('a role refusal says which role may, never the operation', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, app, smtp, finance);
      const response = await page.goto(`${app.baseUrl}/dashboard/admin`);
      assert.equal(response?.status(), 403);
      await page.getByRole('heading', { level: 1, name: 'You cannot do this' }).waitFor();
      const text = await page.locator('main').innerText();
      assert.match(text, /Only a member with the admin role can open this page; your role is finance\./);
      assert.match(text, /Error code role_not_allowed · request id req_/);
      assert.doesNotMatch(text, /admin\.members|may not call|That did not work/);
      await assertAccessible(page, 'role refused');
      await shot(page, 'role refused');

      // A form the role does not offer, sent anyway: the page it names comes back with the
      // refusal above it, in the same words.
      const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
      const sent = await page.request.post(`${app.baseUrl}/dashboard/actions/admin.members.add`, {
        form: {
          _csrf: csrf,
          _back: '/dashboard/contractors',
          email: 'new@example.test',
          role: 'admin',
          idempotencyKey: 'dash-forged-add',
        },
        maxRedirects: 0,
      });
      assert.equal(sent.status(), 403);
      const answer = await sent.text();
      assert.match(answer, /<h1>Contractors<\/h1>/);
      assert.match(
        answer,
        /data-refusal[\s\S]*Only a member with the admin role can do this; your role is finance\./,
      );
      assert.doesNotMatch(answer, /admin\.members\.add|may not call/);
      await context.close();
    });

    it('an unknown address, an unknown id and a malformed id answer the 404 page', async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await signIn(page, app, smtp, admin);
      for (const path of [
        '/dashboard/no-such-page',
        '/dashboard/contractors/01927f3e-6a1c-7b2d-8e4f-0123456789ab',
        '/dashboard/invoices/not-an-id',
      ]) {
        const response = await page.goto(`${app.baseUrl}${path}`);
        assert.equal(response?.status(), 404, path);
        await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
        await page.getByRole('link', { name: 'Go to Home' }).waitFor();
      }
      await assertAccessible(page, '404 page');
      await shot(page, '404 page');
      await assertNoHorizontalOverflow(page, '404 page');
      await context.close();
    });
  });
}
