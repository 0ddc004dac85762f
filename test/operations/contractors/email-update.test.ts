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
  storedContractor,
} from './helpers.ts';

for (const dialect of DIALECTS) {
  describe(`contractors.email.update (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let finance: Caller;
    before(async () => {
      ({ app, admin, finance } = await startWithMembers(dialect));
    });
    after(() => app.close());

    const change = caller(() => app, 'contractors.email.update');
    const stored = (id: string) => storedContractor(app, id);

    it('changes the email, keeps a lower-cased copy, audits and emits', async () => {
      const c = await makeContractor(app, admin, { email: 'old@example.com' });
      const res = await change(finance, { id: c.id, expectedRevision: 1, email: 'New.Address@Example.com' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.email, 'New.Address@Example.com');
      assert.equal(res.data.revision, 2);
      const row = await stored(c.id);
      assert.deepEqual(
        [row.email, row.email_normalized, row.revision],
        ['New.Address@Example.com', 'new.address@example.com', 2],
      );
      assert.deepEqual((await auditFor(app, c.id)).at(-1), {
        operation: 'contractors.email.update',
        before: 1,
        after: 2,
        actor: finance.memberId,
      });
      assert.deepEqual(await eventsFor(app, c.id, 'contractor.email_changed'), [
        {
          type: 'contractor.email_changed',
          data: { email: 'New.Address@Example.com', previousEmail: 'old@example.com' },
        },
      ]);
      // The old address is free again.
      await makeContractor(app, admin, { email: 'old@example.com' });
    });

    it('treats the same email as no change, and a change of case as a change', async () => {
      const c = await makeContractor(app, admin, { email: 'same@example.com' });
      const same = await change(admin, { id: c.id, expectedRevision: 1, email: 'same@example.com' });
      assert.equal(same.status, 200);
      assert.equal(same.data.revision, 1);
      assert.deepEqual(await eventsFor(app, c.id, 'contractor.email_changed'), []);
      const recased = await change(admin, { id: c.id, expectedRevision: 1, email: 'Same@Example.com' });
      assert.equal(recased.status, 200);
      assert.equal(recased.data.revision, 2);
      assert.equal((await stored(c.id)).email, 'Same@Example.com');
    });

    it('refuses an email another contractor has, whatever its case', async () => {
      await makeContractor(app, admin, { email: 'taken@example.com' });
      const c = await makeContractor(app, admin);
      const res = await change(admin, { id: c.id, expectedRevision: 1, email: 'TAKEN@example.COM' });
      assertError(res, 409, 'email_taken', 'email');
      assert.equal((await stored(c.id)).revision, 1);
      // Another organization's contractors do not count.
      const stranger = await createCaller(app);
      const theirs = await makeContractor(app, stranger);
      const ok = await change(stranger, { id: theirs.id, expectedRevision: 1, email: 'taken@example.com' });
      assert.equal(ok.status, 200);
    });

    it('refuses bad input with the exact code and field', async () => {
      const c = await makeContractor(app, admin);
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ id: c.id, expectedRevision: 1 }, 'invalid_input', 'email'],
        [{ id: c.id, expectedRevision: 1, email: 'not an email' }, 'invalid_input', 'email'],
        [
          { id: c.id, expectedRevision: 1, email: `${'a'.repeat(310)}@example.com` },
          'invalid_input',
          'email',
        ],
        [{ id: c.id, expectedRevision: 1, email: 42 }, 'invalid_input', 'email'],
        [{ id: 'x', expectedRevision: 1, email: 'a@example.com' }, 'invalid_input', 'id'],
        [{ id: c.id, email: 'a@example.com' }, 'invalid_input', 'expectedRevision'],
        [{ id: c.id, expectedRevision: -1, email: 'a@example.com' }, 'invalid_input', 'expectedRevision'],
        [
          { id: c.id, expectedRevision: 1, email: 'a@example.com', displayName: 'X' },
          'unknown_field',
          'displayName',
        ],
        [
          { id: c.id, expectedRevision: 1, email: 'a@example.com', idempotencyKey: 'k'.repeat(151) },
          'invalid_input',
          'idempotencyKey',
        ],
      ];
      for (const [input, code, field] of cases) {
        const res = await call(app.baseUrl, 'contractors.email.update', input, {
          token: admin.token,
          idempotencyKey: typeof input.idempotencyKey === 'string' ? null : undefined,
        });
        assertError(res, 400, code, field);
      }
      assert.equal((await stored(c.id)).revision, 1);
    });

    it('refuses a stale revision', async () => {
      const c = await makeContractor(app, admin);
      await change(admin, { id: c.id, expectedRevision: 1, email: 'first@example.com' });
      const res = await change(admin, { id: c.id, expectedRevision: 1, email: 'second@example.com' });
      assertError(res, 409, 'revision_conflict', 'expectedRevision');
      assert.equal(res.error.current_revision, 2);
      assert.equal((await stored(c.id)).email, 'first@example.com');
    });

    it('replays a retried request once', async () => {
      const c = await makeContractor(app, admin);
      const input = { id: c.id, expectedRevision: 1, email: 'replay@example.com' };
      const first = await change(admin, input, 'email-replay-0001');
      const again = await change(admin, input, 'email-replay-0001');
      assert.equal(first.status, 200);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal((await eventsFor(app, c.id, 'contractor.email_changed')).length, 1);
    });

    it("answers 404 for another organization's contractor", async () => {
      const stranger = await createCaller(app);
      const theirs = await makeContractor(app, stranger);
      const res = await change(admin, { id: theirs.id, expectedRevision: 1, email: 'grab@example.com' });
      assertError(res, 404, 'not_found', 'id');
      assertError(
        await change(admin, { id: OTHER_ID, expectedRevision: 1, email: 'grab@example.com' }),
        404,
        'not_found',
      );
      assert.equal((await stored(theirs.id)).email, theirs.email);
    });

    it('refuses keys without accounting:write', async () => {
      const reader = await createCaller(app, {
        organizationId: admin.organizationId,
        scopes: ['accounting:read'],
      });
      const c = await makeContractor(app, admin);
      const res = await change(reader, { id: c.id, expectedRevision: 1, email: 'r@example.com' });
      assertError(res, 403, 'insufficient_scope');
    });
  });
}
