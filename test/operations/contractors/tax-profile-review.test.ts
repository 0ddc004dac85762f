import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';
import {
  assertError,
  auditFor,
  caller,
  eventsFor,
  makeContractor,
  OTHER_ID,
  startWithMembers,
} from './helpers.ts';

for (const dialect of DIALECTS) {
  describe(`contractors.taxProfile.review (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let finance: Caller;
    before(async () => {
      ({ app, admin, finance } = await startWithMembers(dialect));
    });
    after(() => app.close());

    const review = caller(() => app, 'contractors.taxProfile.review');
    const answers = { residency: 'CA', servicesInCanada: true, identityConfirmed: true };

    it('starts unreviewed: contractors.get shows an empty profile', async () => {
      const c = await makeContractor(app, admin);
      const res = await call(app.baseUrl, 'contractors.get', { id: c.id }, { token: finance.token });
      assert.equal(res.status, 200);
      assert.deepEqual(res.data.tax_profile, {
        residency: null,
        services_in_canada: null,
        identity_confirmed: false,
        reviewed_at: null,
        reviewed_by: null,
      });
    });

    it('records the review by a finance member, returned by contractors.get', async () => {
      const c = await makeContractor(app, admin);
      app.clock.set('2026-03-01T09:30:00.000Z');
      const res = await review(finance, { id: c.id, expectedRevision: 1, ...answers });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const profile = {
        residency: 'CA',
        services_in_canada: true,
        identity_confirmed: true,
        reviewed_at: '2026-03-01T09:30:00.000Z',
        reviewed_by: finance.memberId,
      };
      assert.deepEqual(res.data.tax_profile, profile);
      assert.equal(res.data.revision, 2);
      const got = await call(
        app.baseUrl,
        'contractors.get',
        { id: c.id },
        { token: admin.token, method: 'GET' },
      );
      assert.deepEqual(got.data.tax_profile, profile);
      assert.equal(got.data.revision, 2);
      assert.deepEqual((await auditFor(app, c.id)).at(-1), {
        operation: 'contractors.taxProfile.review',
        before: 1,
        after: 2,
        actor: finance.memberId,
      });
      assert.deepEqual(await eventsFor(app, c.id, 'contractor.tax_profile_reviewed'), [
        {
          type: 'contractor.tax_profile_reviewed',
          data: { ...answers, reviewedBy: finance.memberId },
        },
      ]);
    });

    it('lets an administrator review too, and a second review replaces the first', async () => {
      const c = await makeContractor(app, admin);
      await review(finance, { id: c.id, expectedRevision: 1, ...answers });
      app.clock.set('2026-04-02T10:00:00.000Z');
      const res = await review(admin, {
        id: c.id,
        expectedRevision: 2,
        residency: 'US',
        servicesInCanada: false,
        identityConfirmed: false,
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.data.tax_profile, {
        residency: 'US',
        services_in_canada: false,
        identity_confirmed: false,
        reviewed_at: '2026-04-02T10:00:00.000Z',
        reviewed_by: admin.memberId,
      });
      assert.equal(res.data.revision, 3);
    });

    it('refuses bad input with the exact code and field', async () => {
      const c = await makeContractor(app, admin);
      const base = { id: c.id, expectedRevision: 1, ...answers };
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ ...base, residency: undefined }, 'invalid_input', 'residency'],
        [{ ...base, residency: 'ca' }, 'invalid_input', 'residency'],
        [{ ...base, residency: 'CAN' }, 'invalid_input', 'residency'],
        [{ ...base, servicesInCanada: undefined }, 'invalid_input', 'servicesInCanada'],
        [{ ...base, servicesInCanada: 'yes' }, 'invalid_input', 'servicesInCanada'],
        [{ ...base, identityConfirmed: null }, 'invalid_input', 'identityConfirmed'],
        [{ ...base, expectedRevision: undefined }, 'invalid_input', 'expectedRevision'],
        [{ ...base, id: 'abc' }, 'invalid_input', 'id'],
        [{ ...base, reviewedBy: 'me' }, 'unknown_field', 'reviewedBy'],
      ];
      for (const [input, code, field] of cases) {
        const res = await review(admin, JSON.parse(JSON.stringify(input)) as Record<string, unknown>);
        assertError(res, 400, code, field);
      }
      const got = await call(app.baseUrl, 'contractors.get', { id: c.id }, { token: admin.token });
      assert.equal(got.data.revision, 1);
      assert.equal((got.data.tax_profile as { reviewed_at: unknown }).reviewed_at, null);
    });

    it('refuses a stale revision', async () => {
      const c = await makeContractor(app, admin);
      await review(admin, { id: c.id, expectedRevision: 1, ...answers });
      const res = await review(admin, { id: c.id, expectedRevision: 1, ...answers, residency: 'FR' });
      assertError(res, 409, 'revision_conflict', 'expectedRevision');
      assert.equal(res.error.current_revision, 2);
    });

    it('replays a retried request once', async () => {
      const c = await makeContractor(app, admin);
      const input = { id: c.id, expectedRevision: 1, ...answers };
      const first = await review(admin, input, 'tax-replay-0001');
      const again = await review(admin, input, 'tax-replay-0001');
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal((await eventsFor(app, c.id, 'contractor.tax_profile_reviewed')).length, 1);
    });

    it("answers 404 for another organization's contractor", async () => {
      const stranger = await createCaller(app);
      const theirs = await makeContractor(app, stranger);
      assertError(
        await review(admin, { id: theirs.id, expectedRevision: 1, ...answers }),
        404,
        'not_found',
        'id',
      );
      assertError(
        await review(admin, { id: OTHER_ID, expectedRevision: 1, ...answers }),
        404,
        'not_found',
        'id',
      );
      const got = await call(app.baseUrl, 'contractors.get', { id: theirs.id }, { token: stranger.token });
      assert.equal(got.data.revision, 1);
    });

    it('refuses keys without accounting:write', async () => {
      const reader = await createCaller(app, {
        organizationId: admin.organizationId,
        scopes: ['accounting:read'],
      });
      const c = await makeContractor(app, admin);
      assertError(
        await review(reader, { id: c.id, expectedRevision: 1, ...answers }),
        403,
        'insufficient_scope',
      );
    });
  });
}
