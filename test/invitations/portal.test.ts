import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { API_VERSION } from '../../src/contract/version.ts';
import { asJson } from '../../src/db/values.ts';
import { MINUTE } from '../../src/lib/clock.ts';
import { type Caller, createCaller, type TestApp } from '../support/app.ts';
import { auditRows } from '../support/audit.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import {
  contractorRow,
  getPage,
  inviteOk,
  linkOf,
  listOf,
  makeContractor,
  type Page,
  postAccept,
  startInvitationApp,
  submitAccept,
} from './helpers.ts';

function assertHtmlPage(page: Page, status: number, pattern: RegExp) {
  assert.equal(page.status, status, page.html.slice(0, 300));
  assert.match(page.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
  assert.match(page.headers.get('x-request-id') ?? '', /^req_[0-9a-f]{32}$/);
  assert.equal(page.headers.get('x-accounting-api-version'), API_VERSION);
  assert.equal(page.headers.get('cache-control'), 'no-store');
  assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
  assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  assert.match(page.html, /^<!doctype html>/);
  assert.match(page.html, pattern);
  // Self-contained: no scripts, stylesheets, images or other external assets.
  assert.doesNotMatch(page.html, /<script|<link|<img|src=|https?:\/\//i);
}

for (const dialect of DIALECTS) {
  describe(`portal invitation pages (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startInvitationApp(dialect);
      admin = await createCaller(app);
      await app.services.db.kysely
        .updateTable('organizations')
        .set({ name: 'Acme & Sons' })
        .where('id', '=', admin.organizationId)
        .execute();
    });
    after(() => app.close());

    it('shows an escaped page with an Accept form; GET alone changes nothing', async () => {
      const contractor = await makeContractor(app, admin, { displayName: '<b>Ada</b>' });
      const invitation = await inviteOk(app, admin, contractor.id);
      const link = await linkOf(app, admin, contractor.id);
      const page = await getPage(link);
      assertHtmlPage(
        page,
        200,
        /<form method="post" action="[A-Za-z0-9_-]{43}\/accept"><button type="submit">Accept<\/button>/,
      );
      assert.ok(page.html.includes('Hello &lt;b&gt;Ada&lt;/b&gt;,'));
      assert.ok(page.html.includes('Acme &amp; Sons'));
      assert.ok(page.html.includes(`${invitation.expires_at.slice(0, 16).replace('T', ' ')} UTC`));
      assert.equal((await listOf(app, admin, contractor.id))[0]?.status, 'open');
      assert.equal((await contractorRow(app, contractor.id)).joined_at, null);
    });

    it('accepts through the form: invitation accepted, contractor joined, audited as the contractor, event recorded', async () => {
      const contractor = await makeContractor(app, admin);
      const invitation = await inviteOk(app, admin, contractor.id);
      const link = await linkOf(app, admin, contractor.id);
      app.clock.advance(5 * MINUTE);
      const now = app.clock.now().toISOString();
      const accepted = await submitAccept(link, (await getPage(link)).html);
      // Accepting signs in (decision 448): the portal session cookie and the portal's first page.
      assert.equal(accepted.status, 303, accepted.html);
      assert.equal(accepted.headers.get('location'), '/portal/hours?done=joined');
      assert.equal(accepted.headers.get('cache-control'), 'no-store');
      const cookie = accepted.headers.get('set-cookie') ?? '';
      assert.match(
        cookie,
        /^acct_contractor=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/,
      );
      const home = await fetch(`${app.baseUrl}/portal/hours?done=joined`, {
        headers: { cookie: cookie.split(';')[0] ?? '' },
        redirect: 'manual',
      });
      assert.equal(home.status, 200);
      assert.match(
        await home.text(),
        /You joined the contractor portal of Acme &amp; Sons and are signed in/,
      );

      const [listed] = await listOf(app, admin, contractor.id);
      assert.deepEqual(
        [listed?.id, listed?.status, listed?.accepted_at, listed?.revision],
        [invitation.id, 'accepted', now, 2],
      );
      const row = await contractorRow(app, contractor.id);
      assert.equal(new Date(String(row.joined_at)).toISOString(), now);
      assert.equal(row.revision, 3, 'created 1, invited 2, joined 3');
      const got = await call(app.baseUrl, 'contractors.get', { id: contractor.id }, { token: admin.token });
      assert.equal(got.data.portal_status, 'joined');
      assert.equal(got.data.joined_at, now);

      const { kysely } = app.services.db;
      const requestId = accepted.headers.get('x-request-id') ?? '';
      const audit = await auditRows(app, { requestId }, { orderBy: ['record_type'] });
      const session = await kysely
        .selectFrom('web_sessions')
        .select(['id', 'method'])
        .where('principal_id', '=', contractor.id)
        .executeTakeFirstOrThrow();
      assert.equal(session.method, 'invitation');
      assert.deepEqual(
        audit.map((a) => [
          a.operation,
          a.record_type,
          a.record_id,
          a.before_revision,
          a.after_revision,
          a.actor_type,
          a.actor_id,
          a.credential_id,
          a.organization_id,
        ]),
        [
          [
            'portal.invitations.accept',
            'contractor',
            contractor.id,
            2,
            3,
            'contractor',
            contractor.id,
            null,
            admin.organizationId,
          ],
          [
            'portal.invitations.accept',
            'invitation',
            invitation.id,
            1,
            2,
            'contractor',
            contractor.id,
            null,
            admin.organizationId,
          ],
          // The session is audited as a link sign-in is: its own unit, operation portal.signIn.
          [
            'portal.signIn',
            'web_session',
            session.id,
            null,
            null,
            'contractor',
            contractor.id,
            null,
            admin.organizationId,
          ],
        ],
      );
      const event = await kysely
        .selectFrom('events')
        .selectAll()
        .where('type', '=', 'invitation.accepted')
        .where('subject_id', '=', invitation.id)
        .executeTakeFirstOrThrow();
      assert.equal(event.organization_id, admin.organizationId);
      assert.equal(event.request_id, requestId);
      assert.deepEqual(asJson(event.data), {
        contractorId: contractor.id,
        email: contractor.email,
        acceptedAt: Math.floor(Date.parse(now) / 1000),
      });

      // The link is used up: 410 on both routes, nothing changes again.
      assertHtmlPage(await getPage(link), 410, /already accepted/);
      assertHtmlPage(await postAccept(link), 410, /already accepted/);
      assert.equal((await contractorRow(app, contractor.id)).revision, 3);
    });

    it('two accepts at once: exactly one wins, one event', async () => {
      const contractor = await makeContractor(app, admin);
      const invitation = await inviteOk(app, admin, contractor.id);
      const link = await linkOf(app, admin, contractor.id);
      const results = await Promise.all([postAccept(link), postAccept(link), postAccept(link)]);
      assert.deepEqual(results.map((r) => r.status).sort(), [303, 410, 410]);
      const events = await app.services.db.kysely
        .selectFrom('events')
        .select('id')
        .where('type', '=', 'invitation.accepted')
        .where('subject_id', '=', invitation.id)
        .execute();
      assert.equal(events.length, 1);
      assert.equal((await contractorRow(app, contractor.id)).revision, 3);
    });

    it('accepting signs in, so it needs our own page: another site, Origin null or none change nothing', async () => {
      const contractor = await makeContractor(app, admin);
      await inviteOk(app, admin, contractor.id);
      const link = await linkOf(app, admin, contractor.id);
      for (const headers of [
        { origin: 'https://evil.example' } as Record<string, string>,
        { origin: 'null' },
        {},
        { origin: app.baseUrl, 'sec-fetch-site': 'cross-site' },
      ]) {
        const refused = await fetch(`${link}/accept`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
          body: '',
          redirect: 'manual',
        });
        const page = { status: refused.status, headers: refused.headers, html: await refused.text() };
        assertHtmlPage(page, 403, /csrf_failed/);
        assert.equal(refused.headers.get('set-cookie'), null, JSON.stringify(headers));
      }
      const row = await contractorRow(app, contractor.id);
      assert.deepEqual([row.joined_at, row.revision], [null, 2]);
      assert.equal((await listOf(app, admin, contractor.id))[0]?.status, 'open');
      // From our own page (Origin naming this host) the same link still works.
      const accepted = await fetch(`${link}/accept`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.baseUrl },
        body: '',
        redirect: 'manual',
      });
      assert.equal(accepted.status, 303);
    });

    it('accepted while the organization is suspended: joined, not signed in, told to sign in later', async () => {
      const other = await createCaller(app);
      const contractor = await makeContractor(app, other);
      await inviteOk(app, other, contractor.id);
      const link = await linkOf(app, other, contractor.id);
      const page = await getPage(link);
      await app.services.db.kysely
        .updateTable('organizations')
        .set({ suspended_at: app.clock.now().toISOString() })
        .where('id', '=', other.organizationId)
        .execute();
      const accepted = await submitAccept(link, page.html);
      assertHtmlPage(
        accepted,
        200,
        /You have joined .*<a href="..\/..\/sign-in">Sign in to the portal<\/a>/s,
      );
      assert.equal(accepted.headers.get('set-cookie'), null);
      assert.notEqual((await contractorRow(app, contractor.id)).joined_at, null);
    });

    it('answers unknown, malformed and overlong tokens with a 404 page, never a 500', async () => {
      const base = `${app.baseUrl}/portal/invitations`;
      const unknown = `${base}/${randomBytes(32).toString('base64url')}`;
      assertHtmlPage(await getPage(unknown), 404, /Invitation not found/);
      assertHtmlPage(await postAccept(unknown), 404, /Invitation not found/);
      for (const token of [
        'short',
        'x'.repeat(43).replace(/x$/, '!'),
        "abc'%22%3Cscript%3E",
        'a'.repeat(44),
      ]) {
        assertHtmlPage(await getPage(`${base}/${token}`), 404, /Invitation not found/);
        assertHtmlPage(await postAccept(`${base}/${token}`), 404, /Invitation not found/);
      }
      for (const path of ['a'.repeat(500), 'a/b', `${'a'.repeat(43)}/accept/more`]) {
        assertHtmlPage(await getPage(`${base}/${path}`), 404, /Invitation not found/);
        assertHtmlPage(await postAccept(`${base}/${path}`), 404, /Invitation not found/);
      }
    });

    it('refuses while portal access is off (403 page) and changes nothing', async () => {
      const contractor = await makeContractor(app, admin);
      await inviteOk(app, admin, contractor.id);
      const link = await linkOf(app, admin, contractor.id);
      await app.services.db.kysely
        .updateTable('contractors')
        .set({ active: 0 })
        .where('id', '=', contractor.id)
        .execute();
      assertHtmlPage(await getPage(link), 403, /Portal access is turned off/);
      assertHtmlPage(await postAccept(link), 403, /Portal access is turned off/);
      const row = await contractorRow(app, contractor.id);
      assert.deepEqual([row.joined_at, row.revision], [null, 2]);
      assert.equal((await listOf(app, admin, contractor.id))[0]?.status, 'open');
    });

    it('tells a replaced link from a revoked one', async () => {
      const contractor = await makeContractor(app, admin);
      await inviteOk(app, admin, contractor.id);
      const first = await linkOf(app, admin, contractor.id);
      const second = await inviteOk(app, admin, contractor.id);
      const secondLink = await linkOf(app, admin, contractor.id);
      assertHtmlPage(await getPage(first), 410, /Invitation replaced/);
      assertHtmlPage(await postAccept(first), 410, /Invitation replaced/);
      const res = await call(
        app.baseUrl,
        'contractors.invitations.revoke',
        { id: second.id, expectedRevision: 1 },
        { token: admin.token },
      );
      assert.equal(res.status, 200);
      assertHtmlPage(await getPage(secondLink), 410, /Invitation withdrawn/);
      assertHtmlPage(await postAccept(secondLink), 410, /Invitation withdrawn/);
    });
  });
}
