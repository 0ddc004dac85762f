import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ok } from '../operations/contractors/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { PageClient } from './dashboard-client.ts';
import { type Joined, joinedContractor, portalClient } from './portal-client.ts';

interface Records {
  hoursDescription: string;
  agreementId: string;
  agreementTitle: string;
  payoutReference: string;
}

/** Hours, an agreement and a paid payout of one contractor, each with text unique to them. */
async function recordsOf(app: TestApp, admin: Caller, c: Joined, tag: string): Promise<Records> {
  const h = await ok(app, admin, 'contractors.hours.submit', {
    contractorId: c.id,
    workDate: '2026-09-02',
    hours: '3.00',
    description: `hours-of-${tag}`,
  });
  await ok(app, admin, 'contractors.hours.approve', { id: h.id, expectedRevision: 1 });
  const payout = await ok(app, admin, 'contractors.payouts.create', {
    contractorId: c.id,
    periodEnd: '2026-09-30',
  });
  await ok(app, admin, 'contractors.payouts.markPaid', {
    id: payout.id,
    expectedRevision: 1,
    paidOn: '2026-10-01',
    reference: `ref-of-${tag}`,
  });
  const t = await ok(app, admin, 'contractors.templates.createDraft', {
    name: `T ${tag}`,
    markdown: `# Terms of ${tag}`,
  });
  const a = await ok(app, admin, 'contractors.agreements.send', {
    contractorId: c.id,
    templateId: t.id,
    title: `agreement-of-${tag}`,
  });
  return {
    hoursDescription: `hours-of-${tag}`,
    agreementId: a.id,
    agreementTitle: `agreement-of-${tag}`,
    payoutReference: `ref-of-${tag}`,
  };
}

const csrfOf = (page: string) => PageClient.csrfOf(page);

/** The hidden fields of the hours form: its CSRF token and this rendering's submission key. */
async function hoursForm(client: PageClient): Promise<{ _csrf: string; submissionKey: string }> {
  const page = await (await client.get('/portal/hours')).text();
  const key = /name="submissionKey" value="([0-9a-f-]{36})"/.exec(page)?.[1];
  assert.ok(key, 'the hours form carries a submission key');
  return { _csrf: csrfOf(page), submissionKey: key };
}

for (const dialect of DIALECTS) {
  describe(`contractor portal isolation and access (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let admin: Caller;
    let ada: Joined;
    let bob: Joined;
    let adaRecords: Records;
    let bobRecords: Records;
    let strangerRecords: Records;
    before(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(dialect, {
        env: { SMTP_URL: smtp.url, ACCOUNTING_SIGN_IN_RATE_LIMIT: '1000/1m' },
      });
      app.services.config.publicUrl = app.baseUrl;
      admin = await createCaller(app);
      ada = await joinedContractor(app, admin, 'Ada');
      bob = await joinedContractor(app, admin, 'Bob');
      adaRecords = await recordsOf(app, admin, ada, 'ada');
      bobRecords = await recordsOf(app, admin, bob, 'bob');
      const otherAdmin = await createCaller(app);
      strangerRecords = await recordsOf(
        app,
        otherAdmin,
        await joinedContractor(app, otherAdmin, 'Eve'),
        'eve',
      );
    });
    after(async () => {
      await app.close();
      await smtp.close();
    });

    it('every page shows only the signed-in contractor; every action on another contractor is not found', async () => {
      const client = await portalClient(app, smtp, ada.email);
      const pages = [
        '/portal/hours',
        '/portal/agreements',
        '/portal/payments',
        `/portal/agreements/${adaRecords.agreementId}`,
      ];
      let all = '';
      for (const path of pages) {
        const res = await client.get(path);
        assert.equal(res.status, 200, path);
        all += await res.text();
      }
      for (const mine of [
        adaRecords.hoursDescription,
        adaRecords.agreementTitle,
        adaRecords.payoutReference,
      ]) {
        assert.ok(all.includes(mine), `shows ${mine}`);
      }
      for (const theirs of [bobRecords, strangerRecords]) {
        for (const text of [
          theirs.hoursDescription,
          theirs.agreementTitle,
          theirs.payoutReference,
          theirs.agreementId,
        ]) {
          assert.ok(!all.includes(text), `never shows ${text}`);
        }
        assert.equal((await client.get(`/portal/agreements/${theirs.agreementId}`)).status, 404);
        assert.equal((await client.get(`/portal/agreements/${theirs.agreementId}/download`)).status, 404);
        const csrf = csrfOf(await (await client.get('/portal/hours')).text());
        const sign = await client.post(`/portal/agreements/${theirs.agreementId}/sign`, {
          _csrf: csrf,
          fullName: 'Ada Lovelace',
          consent: 'on',
          documentSha256: 'x',
        });
        assert.equal(sign.status, 404);
      }
      const bobAgreement = await ok(app, admin, 'contractors.agreements.get', { id: bobRecords.agreementId });
      assert.equal(bobAgreement.status, 'sent', "Bob's agreement stays unsigned");
      // Hours submitted in the portal are Ada's, whatever the form says.
      const posted = await client.post('/portal/hours', {
        ...(await hoursForm(client)),
        workDate: '2026-09-03',
        hours: '1.25',
        description: 'portal work',
        contractorId: bob.id,
      });
      assert.equal(posted.status, 303);
      const list = await ok(app, admin, 'contractors.hours.list', { contractorId: bob.id });
      assert.ok(!(list.items as Array<{ description: string }>).some((h) => h.description === 'portal work'));
      const mine = await ok(app, admin, 'contractors.hours.list', {
        contractorId: ada.id,
        status: 'submitted',
      });
      const submitted = (mine.items as Array<{ description: string; submitted_by: string }>).find(
        (h) => h.description === 'portal work',
      );
      assert.equal(submitted?.submitted_by, 'contractor');
    });

    it('refuses forms without the CSRF token or from another site, and bad hours with a clear message', async () => {
      const client = await portalClient(app, smtp, ada.email);
      assert.equal(
        (await client.post('/portal/hours', { workDate: '2026-09-03', hours: '1', description: 'x' })).status,
        403,
      );
      const csrf = csrfOf(await (await client.get('/portal/hours')).text());
      const crossSite = await client.post(
        '/portal/hours',
        { _csrf: csrf, workDate: '2026-09-03', hours: '1', description: 'x' },
        { origin: 'https://evil.example' },
      );
      assert.equal(crossSite.status, 403);
      const bad = await client.post('/portal/hours', {
        ...(await hoursForm(client)),
        workDate: '2026-09-03',
        hours: '25',
        description: 'x',
      });
      assert.equal(bad.status, 400);
      assert.match(await bad.text(), /at most 24/);
      const noSession = new PageClient(app);
      const anon = await noSession.get('/portal/hours');
      assert.equal(anon.status, 303);
      assert.equal(anon.headers.get('location'), '/portal/sign-in?next=%2Fportal%2Fhours');
    });

    it('a resubmitted hours form records the hours once; a form without its key is refused', async () => {
      const client = await portalClient(app, smtp, ada.email);
      const form = {
        ...(await hoursForm(client)),
        workDate: '2026-09-04',
        hours: '2.50',
        description: 'twice',
      };
      assert.equal((await client.post('/portal/hours', form)).status, 303);
      assert.equal((await client.post('/portal/hours', form)).status, 303, 'the second submission replays');
      const changed = await client.post('/portal/hours', { ...form, hours: '3.00' });
      assert.equal(changed.status, 400, 'the same key with other hours is refused');
      assert.match(await changed.text(), /already submitted with other values/);
      const stale = await client.post('/portal/hours', { ...form, submissionKey: '' });
      assert.equal(stale.status, 400);
      assert.match(await stale.text(), /reload the page/);
      const mine = await ok(app, admin, 'contractors.hours.list', { contractorId: ada.id });
      const twice = (mine.items as Array<{ description: string }>).filter((h) => h.description === 'twice');
      assert.equal(twice.length, 1);
      // A new rendering of the form is a new submission.
      const again = { ...form, ...(await hoursForm(client)) };
      assert.equal((await client.post('/portal/hours', again)).status, 303);
      const after2 = await ok(app, admin, 'contractors.hours.list', { contractorId: ada.id });
      assert.equal(
        (after2.items as Array<{ description: string }>).filter((h) => h.description === 'twice').length,
        2,
      );
    });

    it('a deactivated contractor, a suspended organization, a reused link or an unknown address gets nothing', async () => {
      const client = await portalClient(app, smtp, bob.email);
      assert.equal((await client.get('/portal/hours')).status, 200);
      const current = await ok(app, admin, 'contractors.get', { id: bob.id });
      await ok(app, admin, 'contractors.update', {
        id: bob.id,
        expectedRevision: current.revision,
        active: false,
        acknowledgeUnpaid: true,
      });
      assert.equal((await client.get('/portal/hours')).status, 303, 'deactivation ends access at once');
      const before = smtp.messages.length;
      assert.equal((await new PageClient(app).post('/portal/sign-in', { email: bob.email })).status, 200);
      assert.equal(
        (await new PageClient(app).post('/portal/sign-in', { email: 'nobody@example.com' })).status,
        200,
      );
      await app.runJobs();
      assert.equal(
        smtp.messages.length,
        before,
        'no link for a deactivated contractor or an unknown address',
      );

      const adaClient = await portalClient(app, smtp, ada.email);
      await app.services.db.kysely
        .updateTable('organizations')
        .set({ suspended_at: app.clock.now().toISOString() })
        .where('id', '=', admin.organizationId)
        .execute();
      assert.equal((await adaClient.get('/portal/payments')).status, 303, 'suspension ends access at once');
      await app.services.db.kysely
        .updateTable('organizations')
        .set({ suspended_at: null })
        .where('id', '=', admin.organizationId)
        .execute();
      assert.equal((await adaClient.get('/portal/payments')).status, 303, 'the ended session stays ended');

      // An invitation revoked before it was accepted gives no portal access either.
      const revokedEmail = `revoked-${Date.now()}@example.com`;
      const invited = await ok(app, admin, 'contractors.create', {
        displayName: 'Rev',
        legalName: 'Rev Oked',
        email: revokedEmail,
      });
      const invitation = await ok(app, admin, 'contractors.invite', { id: invited.id, expectedRevision: 1 });
      await ok(app, admin, 'contractors.invitations.revoke', {
        id: invitation.id,
        expectedRevision: invitation.revision,
      });
      // The invitation's own mail arrives first, so it is not mistaken for a sign-in link.
      await smtp.waitFor((m) => JSON.stringify(m.to ?? '').includes(revokedEmail));
      const mailsBefore = smtp.messages.length;
      assert.equal((await new PageClient(app).post('/portal/sign-in', { email: revokedEmail })).status, 200);
      await app.runJobs();
      assert.equal(smtp.messages.length, mailsBefore, 'no link after a revoked invitation');

      // A link works once.
      const spent = new PageClient(app);
      const mark = smtp.messages.length;
      await spent.post('/portal/sign-in', { email: ada.email });
      const message = await smtp.waitFor((m) => smtp.messages.indexOf(m) >= mark);
      const path = new URL(/(http:\/\/\S+\/portal\/sign-in\/link\/\S+)/.exec(message.text ?? '')?.[1] ?? '')
        .pathname;
      assert.equal((await spent.post(path, {})).status, 303);
      assert.equal((await new PageClient(app).post(path, {})).status, 400);
    });
  });
}
