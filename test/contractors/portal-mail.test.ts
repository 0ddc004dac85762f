import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { ensureRole, makeContractor, ok } from '../operations/contractors/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { PageClient } from '../web/dashboard-client.ts';
import { joinedContractor } from '../web/portal-client.ts';

// Decision 451: an agreement sent and a payout marked paid are mailed to a contractor who may use
// the portal, in the operation's unit, with the portal page's plain address (never a token).

function recipients(message: ParsedMail): string[] {
  const to = Array.isArray(message.to) ? message.to : message.to ? [message.to] : [];
  return to.flatMap((list) => list.value.map((address) => address.address ?? ''));
}

/** Every mail the outbox holds for an address, by kind. */
async function outboxKinds(app: TestApp, email: string): Promise<string[]> {
  const rows = await app.services.db.kysely
    .selectFrom('mail_outbox')
    .select(['kind', 'recipients'])
    .orderBy('created_at')
    .execute();
  return rows.filter((r) => String(r.recipients).includes(email)).map((r) => String(r.kind));
}

for (const dialect of DIALECTS) {
  describe(`portal news by mail over SMTP (${dialect})`, () => {
    let smtp: TestSmtpServer;
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(dialect, { env: { SMTP_URL: smtp.url } });
      app.services.config.publicUrl = app.baseUrl;
      admin = await createCaller(app);
    });
    after(async () => {
      await app.close();
      await smtp.close();
    });

    it('an agreement sent: the contractor gets "read and sign" with the agreement page, no token', async () => {
      const ada = await joinedContractor(app, admin, 'Ada Mail');
      const template = await ok(app, admin, 'contractors.templates.createDraft', {
        name: 'Services agreement',
        markdown: '# Services\n\n{{contractor.legalName}} works for {{organization.name}}.',
      });
      const agreement = await ok(app, admin, 'contractors.agreements.send', {
        contractorId: ada.id,
        templateId: template.id,
        title: 'Services 2027',
      });
      const message = await smtp.waitFor(
        (m) => recipients(m).includes(ada.email) && /agreement/.test(m.subject ?? ''),
      );
      assert.equal(message.subject, 'Test org sent you an agreement to sign: Services 2027');
      const link = `${app.baseUrl}/portal/agreements/${agreement.id}`;
      assert.match(message.text ?? '', /Hello Ada Mail,/);
      assert.ok((message.text ?? '').includes(`Read and sign the agreement:\n${link}\n`), message.text);
      assert.ok(String(message.html).includes(`href="${link}"`));
      // No bearer secret travels in it: no token-shaped segment, no sign-in or invitation link.
      assert.doesNotMatch(message.text ?? '', /[A-Za-z0-9_-]{43}|sign-in\/link|invitations\//);
      // Not signed in, the link asks who you are and comes back to the agreement (decision 453).
      const client = new PageClient(app);
      const page = await client.get(new URL(link).pathname);
      assert.equal(page.status, 303);
      const signInPath = `/portal/sign-in?next=${encodeURIComponent(`/portal/agreements/${agreement.id}`)}`;
      assert.equal(page.headers.get('location'), signInPath);
      const form = await (await client.get(signInPath)).text();
      const next = /name="next" value="([^"]+)"/.exec(form)?.[1];
      assert.equal(next, `/portal/agreements/${agreement.id}`);
      const before = smtp.messages.length;
      assert.equal((await client.post('/portal/sign-in', { email: ada.email, next })).status, 200);
      const signInMail = await smtp.waitFor(
        (m) => smtp.messages.indexOf(m) >= before && recipients(m).includes(ada.email),
      );
      const signInLink = /(http:\/\/\S+\/portal\/sign-in\/link\/[A-Za-z0-9_-]{43}\?next=\S+)/.exec(
        signInMail.text ?? '',
      )?.[1];
      assert.ok(signInLink, signInMail.text);
      const confirm = new URL(signInLink);
      assert.equal((await client.get(`${confirm.pathname}${confirm.search}`)).status, 200);
      const done = await client.post(`${confirm.pathname}${confirm.search}`, {});
      assert.equal(done.status, 303);
      assert.equal(done.headers.get('location'), `/portal/agreements/${agreement.id}`);
      const opened = await client.get(`/portal/agreements/${agreement.id}`);
      assert.equal(opened.status, 200);
      assert.match(await opened.text(), /<h2>Services<\/h2>\s*<p>Ada Mail Legal works for Test org\.<\/p>/);
      // Anything but a portal page is ignored as a place to come back to.
      for (const bad of [
        'https://evil.example/',
        '//evil.example/portal/hours',
        '/dashboard',
        '/portal/hours/../x',
      ]) {
        const other = await new PageClient(app).get(`/portal/sign-in?next=${encodeURIComponent(bad)}`);
        assert.doesNotMatch(await other.text(), /name="next"/, bad);
      }
    });

    it('a payout marked paid is mailed (amount, period, date, reference, My payments); creating one is not', async () => {
      const grace = await joinedContractor(app, admin, 'Grace Mail');
      const payout = await ok(app, admin, 'contractors.payouts.create', {
        contractorId: grace.id,
        periodEnd: '2026-09-30',
        fixedAmounts: [{ description: 'Retainer', amountMinor: '123456' }],
      });
      assert.deepEqual(await outboxKinds(app, grace.email), ['contractor.invitation']);
      await ok(app, admin, 'contractors.payouts.markPaid', {
        id: payout.id,
        expectedRevision: payout.revision,
        paidOn: '2026-10-01',
        reference: 'WIRE-77',
      });
      const message = await smtp.waitFor(
        (m) => recipients(m).includes(grace.email) && /paid/.test(m.subject ?? ''),
      );
      assert.equal(message.subject, 'Test org paid you CAD 1,234.56');
      const text = message.text ?? '';
      assert.match(
        text,
        /Amount: CAD 1,234\.56\nPeriod: 2026-09-01 to 2026-09-30\nPaid on: 2026-10-01\nReference: WIRE-77/,
      );
      assert.ok(text.includes(`See your payments:\n${app.baseUrl}/portal/payments\n`), text);
      assert.deepEqual(await outboxKinds(app, grace.email), [
        'contractor.invitation',
        'contractor.payout_paid',
      ]);
    });

    it('no mail for a contractor without portal access: never joined, or access turned off', async () => {
      const outside = await makeContractor(app, admin);
      await ensureRole(app, admin, outside.id);
      const email = String(outside.email);
      const template = await ok(app, admin, 'contractors.templates.createDraft', {
        name: 'Plain agreement',
        markdown: 'Terms.',
      });
      await ok(app, admin, 'contractors.agreements.send', {
        contractorId: outside.id,
        templateId: template.id,
      });
      const payout = await ok(app, admin, 'contractors.payouts.create', {
        contractorId: outside.id,
        periodEnd: '2026-09-30',
        fixedAmounts: [{ description: 'Fee', amountMinor: '1000' }],
      });
      await ok(app, admin, 'contractors.payouts.markPaid', {
        id: payout.id,
        expectedRevision: payout.revision,
        paidOn: '2026-10-01',
        reference: 'T-1',
      });
      assert.deepEqual(await outboxKinds(app, email), []);

      const off = await joinedContractor(app, admin, 'Off Mail');
      const current = await ok(app, admin, 'contractors.get', { id: off.id });
      await ok(app, admin, 'contractors.update', {
        id: off.id,
        expectedRevision: current.revision,
        active: false,
      });
      await ok(app, admin, 'contractors.agreements.send', { contractorId: off.id, templateId: template.id });
      assert.deepEqual(await outboxKinds(app, off.email), ['contractor.invitation']);
    });

    it('a replayed send (same idempotency key) mails once', async () => {
      const lin = await joinedContractor(app, admin, 'Lin Mail');
      const template = await ok(app, admin, 'contractors.templates.createDraft', {
        name: 'Once',
        markdown: 'Once.',
      });
      const input = { contractorId: lin.id, templateId: template.id, idempotencyKey: `send-once-${lin.id}` };
      const first = await ok(app, admin, 'contractors.agreements.send', input);
      const again = await ok(app, admin, 'contractors.agreements.send', input);
      assert.equal(again.id, first.id);
      assert.deepEqual(await outboxKinds(app, lin.email), [
        'contractor.invitation',
        'contractor.agreement_waiting',
      ]);
    });
  });
}
