import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { auditRows, op } from './helpers.ts';

interface Member {
  id: string;
  email: string;
  role: string;
  status: string;
  revision: number;
}

for (const dialect of DIALECTS) {
  describe(`admin.members.* (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app.close());

    it('adds by email (lower-cased), lists with filters, and refuses a second member with that email', async () => {
      const admin = await createCaller(app);
      const added = await op(app, admin, 'admin.members.add', {
        email: 'Grace@Example.com',
        role: 'finance',
        name: 'Grace',
      });
      assert.equal(added.status, 200, JSON.stringify(added.body));
      const member = added.data as unknown as Member;
      assert.equal(member.email, 'grace@example.com');
      assert.equal(member.status, 'active');
      assert.equal(member.revision, 1);
      const audit = await auditRows(app, admin.organizationId, member.id);
      assert.deepEqual(
        audit.map((row) => [row.operation, row.before_revision, row.after_revision, row.transport]),
        [['admin.members.add', null, 1, 'http']],
      );

      const again = await op(app, admin, 'admin.members.add', { email: 'GRACE@example.com', role: 'admin' });
      assertError(again, 409, 'member_email_taken');
      assert.equal(again.error.field, 'email');

      const all = await op(app, admin, 'admin.members.list', {}, { method: 'GET' });
      assert.deepEqual(
        (all.data.items as Member[]).map((m) => m.id),
        [member.id, admin.memberId],
        'newest first',
      );
      const finance = await op(app, admin, 'admin.members.list', { role: 'finance' }, { method: 'GET' });
      assert.deepEqual(
        (finance.data.items as Member[]).map((m) => m.id),
        [member.id],
      );
      const page = await op(app, admin, 'admin.members.list', { limit: 1 });
      assert.equal(page.data.nextOffset, 1);
    });

    it('changes a role with a revision check, and never demotes the last active admin', async () => {
      const admin = await createCaller(app);
      const demoteSelf = await op(app, admin, 'admin.members.update', {
        id: admin.memberId,
        expectedRevision: 1,
        role: 'finance',
      });
      assertError(demoteSelf, 409, 'last_admin');

      const other = (await op(app, admin, 'admin.members.add', { email: 'b@example.com', role: 'finance' }))
        .data as unknown as Member;
      const promoted = await op(app, admin, 'admin.members.update', {
        id: other.id,
        expectedRevision: 1,
        role: 'admin',
      });
      assert.equal(promoted.status, 200, JSON.stringify(promoted.body));
      assert.equal(promoted.data.role, 'admin');
      assert.equal(promoted.data.revision, 2);
      const stale = await op(app, admin, 'admin.members.update', {
        id: other.id,
        expectedRevision: 1,
        role: 'finance',
      });
      assertError(stale, 409, 'revision_conflict');
      assert.equal(stale.error.current_revision, 2);
      // With a second active admin, the first may step down.
      const stepDown = await op(app, admin, 'admin.members.update', {
        id: admin.memberId,
        expectedRevision: 1,
        role: 'finance',
      });
      assert.equal(stepDown.status, 200, JSON.stringify(stepDown.body));
      // The caller is finance now: the next administrative call is refused at once.
      assertError(await op(app, admin, 'admin.members.list'), 403, 'role_not_allowed');
    });

    it('never suspends or removes the last active admin (a suspended admin does not count)', async () => {
      const admin = await createCaller(app);
      for (const name of ['admin.members.suspend', 'admin.members.remove']) {
        assertError(
          await op(app, admin, name, { id: admin.memberId, expectedRevision: 1 }),
          409,
          'last_admin',
        );
      }
      const second = await createCaller(app, { organizationId: admin.organizationId });
      const suspended = await op(app, admin, 'admin.members.suspend', {
        id: second.memberId,
        expectedRevision: 1,
      });
      assert.equal(suspended.status, 200, JSON.stringify(suspended.body));
      assertError(
        await op(app, admin, 'admin.members.remove', { id: admin.memberId, expectedRevision: 1 }),
        409,
        'last_admin',
      );
      const member = await app.services.db.kysely
        .selectFrom('members')
        .select(['status', 'revision'])
        .where('id', '=', admin.memberId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(member, { status: 'active', revision: 1 });
    });

    it("suspension ends the member's keys at once, with audit rows for the member and each key", async () => {
      const admin = await createCaller(app);
      const target = await createCaller(app, { organizationId: admin.organizationId, role: 'finance' });
      assert.equal((await op(app, target, 'contractors.list')).status, 200);
      const res = await op(app, admin, 'admin.members.suspend', { id: target.memberId, expectedRevision: 1 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.status, 'suspended');
      assertError(await op(app, target, 'contractors.list'), 401, 'invalid_credential');
      const key = await app.services.db.kysely
        .selectFrom('api_keys')
        .select(['id', 'revoked_at', 'revision'])
        .where('member_id', '=', target.memberId)
        .executeTakeFirstOrThrow();
      assert.notEqual(key.revoked_at, null);
      assert.equal(key.revision, 2);
      const memberAudit = await auditRows(app, admin.organizationId, target.memberId);
      assert.deepEqual(
        memberAudit.map((row) => [row.operation, row.before_revision, row.after_revision]),
        [['admin.members.suspend', 1, 2]],
      );
      const keyAudit = await auditRows(app, admin.organizationId, key.id);
      assert.deepEqual(
        keyAudit.map((row) => [row.operation, row.record_type, row.before_revision, row.after_revision]),
        [['admin.members.suspend', 'api_key', 1, 2]],
      );
      // Suspending again is a state error, not a silent success.
      assertError(
        await op(app, admin, 'admin.members.suspend', { id: target.memberId, expectedRevision: 2 }),
        409,
        'invalid_state',
      );
    });

    it('an admin removing themselves loses access at once; removed is final', async () => {
      const first = await createCaller(app);
      const second = await createCaller(app, { organizationId: first.organizationId });
      const removed = await op(app, second, 'admin.members.remove', {
        id: second.memberId,
        expectedRevision: 1,
      });
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      assert.equal(removed.data.status, 'removed');
      assertError(await op(app, second, 'admin.members.list'), 401, 'invalid_credential');
      for (const [name, extra] of [
        ['admin.members.update', { role: 'admin' }],
        ['admin.members.suspend', {}],
        ['admin.members.remove', {}],
      ] as const) {
        const res = await op(app, first, name, { id: second.memberId, expectedRevision: 2, ...extra });
        assertError(res, 409, 'invalid_state', name);
        assert.equal(res.error.state, 'removed');
      }
    });

    it("another organization's member is not found", async () => {
      const admin = await createCaller(app);
      const stranger = await createCaller(app);
      for (const name of ['admin.members.suspend', 'admin.members.remove']) {
        const res = await op(app, admin, name, { id: stranger.memberId, expectedRevision: 1 });
        assertError(res, 404, 'not_found', name);
      }
      assertError(
        await op(app, admin, 'admin.members.update', {
          id: stranger.memberId,
          expectedRevision: 1,
          role: 'finance',
        }),
        404,
        'not_found',
      );
    });

    it('two admins suspending each other at once leave one active admin', async () => {
      const a = await createCaller(app);
      const b = await createCaller(app, { organizationId: a.organizationId });
      const results = await Promise.all([
        op(app, a, 'admin.members.suspend', { id: b.memberId, expectedRevision: 1 }),
        op(app, b, 'admin.members.suspend', { id: a.memberId, expectedRevision: 1 }),
      ]);
      const statuses = results.map((res) => res.status).sort();
      assert.ok(statuses.includes(200), JSON.stringify(results.map((r) => r.body)));
      const active = await app.services.db.kysely
        .selectFrom('members')
        .select('id')
        .where('organization_id', '=', a.organizationId)
        .where('status', '=', 'active')
        .where('role', '=', 'admin')
        .execute();
      assert.equal(active.length, 1);
    });
  });
}
