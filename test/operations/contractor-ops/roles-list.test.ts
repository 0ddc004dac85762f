import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asBool, asMinor } from '../../../src/db/values.ts';
import { type Caller, createCaller, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';
import {
  assertError,
  auditFor,
  caller,
  eventsFor,
  makeRole,
  OTHER_ID,
  startWithMembers,
} from '../contractors/helpers.ts';

for (const dialect of DIALECTS) {
  describe(`contractorOps.roles.save and list (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let finance: Caller;
    before(async () => {
      ({ app, admin, finance } = await startWithMembers(dialect));
    });
    after(() => app.close());

    const save = caller(() => app, 'contractorOps.roles.save');
    const stored = (id: string) =>
      app.services.db.kysely
        .selectFrom('job_roles')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const full = { name: 'Illustrator', hourlyRateMinor: '7500', currency: 'CAD', payCadence: 'biweekly' };

    it('creates a role (active by default), audits and emits job_role.saved', async () => {
      app.clock.set('2026-02-01T08:00:00.000Z');
      const res = await save(finance, { ...full, description: 'Editorial work' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const id = res.data.id as string;
      assert.deepEqual(res.data, {
        id,
        name: 'Illustrator',
        description: 'Editorial work',
        hourly_rate_minor: '7500',
        currency: 'CAD',
        pay_cadence: 'biweekly',
        active: true,
        revision: 1,
        created_at: '2026-02-01T08:00:00.000Z',
        updated_at: '2026-02-01T08:00:00.000Z',
      });
      const row = await stored(id);
      assert.equal(row.organization_id, admin.organizationId);
      assert.equal(asMinor(row.hourly_rate_minor), 7500n);
      assert.equal(row.name_normalized, 'illustrator');
      assert.equal(asBool(row.active), true);
      assert.deepEqual(await auditFor(app, id), [
        { operation: 'contractorOps.roles.save', before: null, after: 1, actor: finance.memberId },
      ]);
      assert.deepEqual(await eventsFor(app, id), [
        {
          type: 'job_role.saved',
          data: {
            created: true,
            name: 'Illustrator',
            hourlyRateMinor: '7500',
            currency: 'CAD',
            payCadence: 'biweekly',
            active: true,
          },
        },
      ]);
    });

    it('keeps large rates exact', async () => {
      const res = await save(admin, {
        ...full,
        name: 'Big',
        hourlyRateMinor: '9007199254740991',
        currency: 'JPY',
      });
      assert.equal(res.status, 200);
      assert.equal(res.data.hourly_rate_minor, '9007199254740991');
      assert.equal(asMinor((await stored(res.data.id as string)).hourly_rate_minor), 9007199254740991n);
    });

    it('changes only the fields sent, bumps the revision and emits', async () => {
      const role = await makeRole(app, admin, { description: 'keep me' });
      const res = await save(admin, {
        id: role.id,
        expectedRevision: 1,
        hourlyRateMinor: '9900',
        active: false,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.revision, 2);
      assert.equal(res.data.hourly_rate_minor, '9900');
      assert.equal(res.data.active, false);
      assert.equal(res.data.description, 'keep me');
      assert.equal(res.data.name, role.name);
      const row = await stored(role.id);
      assert.deepEqual([asMinor(row.hourly_rate_minor), asBool(row.active), row.revision], [9900n, false, 2]);
      assert.deepEqual((await auditFor(app, role.id)).at(-1), {
        operation: 'contractorOps.roles.save',
        before: 1,
        after: 2,
        actor: admin.memberId,
      });
      const events = await eventsFor(app, role.id);
      assert.equal(events.length, 2);
      assert.equal(events[1]?.data.created, false);
      assert.equal(events[1]?.data.hourlyRateMinor, '9900');
      const cleared = await save(admin, { id: role.id, expectedRevision: 2, description: null });
      assert.equal(cleared.data.description, null);
      assert.equal(cleared.data.revision, 3);
    });

    it('keeps the revision when a save changes nothing', async () => {
      const role = await makeRole(app, admin);
      const res = await save(admin, {
        id: role.id,
        expectedRevision: 1,
        name: role.name,
        hourlyRateMinor: role.hourly_rate_minor,
        active: true,
      });
      assert.equal(res.status, 200);
      assert.equal(res.data.revision, 1);
      assert.equal((await eventsFor(app, role.id)).length, 1);
      assert.equal((await auditFor(app, role.id)).length, 1);
    });

    it('refuses a duplicate name, whatever its case, on create and on rename', async () => {
      await makeRole(app, admin, { name: 'Copy Editor' });
      assertError(await save(admin, { ...full, name: 'copy editor' }), 409, 'job_role_name_taken', 'name');
      const other = await makeRole(app, admin, { name: 'Proofreader' });
      assertError(
        await save(admin, { id: other.id, expectedRevision: 1, name: 'COPY EDITOR' }),
        409,
        'job_role_name_taken',
        'name',
      );
      assert.equal((await stored(other.id)).name, 'Proofreader');
      // Renaming a role to a new case of its own name is fine.
      const recased = await save(admin, { id: other.id, expectedRevision: 1, name: 'proofreader' });
      assert.equal(recased.status, 200);
      assert.equal(recased.data.name, 'proofreader');
      // Names are per organization.
      const stranger = await createCaller(app);
      assert.equal((await save(stranger, { ...full, name: 'Copy Editor' })).status, 200);
    });

    it('refuses bad input with the exact code and field, creating nothing', async () => {
      const role = await makeRole(app, admin);
      const cases: Array<[Record<string, unknown>, number, string, string]> = [
        [{ ...full, name: undefined }, 400, 'invalid_input', 'name'],
        [{ ...full, hourlyRateMinor: undefined }, 400, 'invalid_input', 'hourlyRateMinor'],
        [{ ...full, currency: undefined }, 400, 'invalid_input', 'currency'],
        [{ ...full, payCadence: undefined }, 400, 'invalid_input', 'payCadence'],
        [{ ...full, name: '' }, 400, 'invalid_input', 'name'],
        [{ ...full, name: 'n'.repeat(101) }, 400, 'invalid_input', 'name'],
        [{ ...full, description: 'd'.repeat(1001) }, 400, 'invalid_input', 'description'],
        [{ ...full, hourlyRateMinor: 7500 }, 400, 'invalid_input', 'hourlyRateMinor'],
        [{ ...full, hourlyRateMinor: '75.00' }, 400, 'invalid_input', 'hourlyRateMinor'],
        [{ ...full, hourlyRateMinor: '0' }, 400, 'invalid_input', 'hourlyRateMinor'],
        [{ ...full, hourlyRateMinor: '-5' }, 400, 'invalid_input', 'hourlyRateMinor'],
        [{ ...full, hourlyRateMinor: '007' }, 400, 'invalid_input', 'hourlyRateMinor'],
        [{ ...full, hourlyRateMinor: '9007199254740992' }, 400, 'invalid_input', 'hourlyRateMinor'],
        [{ ...full, currency: 'cad' }, 400, 'invalid_input', 'currency'],
        [{ ...full, currency: 'CADX' }, 400, 'invalid_input', 'currency'],
        [{ ...full, currency: 'XYZ' }, 400, 'unsupported_currency', 'currency'],
        [{ ...full, payCadence: 'daily' }, 400, 'invalid_input', 'payCadence'],
        [{ ...full, active: 'yes' }, 400, 'invalid_input', 'active'],
        [{ ...full, expectedRevision: 1 }, 400, 'invalid_input', 'expectedRevision'],
        [{ id: role.id, name: 'No revision' }, 400, 'invalid_input', 'expectedRevision'],
        [{ id: 'abc', expectedRevision: 1 }, 400, 'invalid_input', 'id'],
        [{ ...full, rate: '1' }, 400, 'unknown_field', 'rate'],
        [{ ...full, idempotencyKey: 'k'.repeat(151) }, 400, 'invalid_input', 'idempotencyKey'],
      ];
      for (const [input, status, code, field] of cases) {
        const body = JSON.parse(JSON.stringify(input)) as Record<string, unknown>;
        const res = await call(app.baseUrl, 'contractorOps.roles.save', body, {
          token: admin.token,
          idempotencyKey: typeof body.idempotencyKey === 'string' ? null : undefined,
        });
        assertError(res, status, code, field);
      }
      const count = await app.services.db.kysely
        .selectFrom('job_roles')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('organization_id', '=', admin.organizationId)
        .where('name', '=', 'Illustrator')
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 1, 'only the role of the first test');
      assert.equal((await stored(role.id)).revision, 1);
    });

    it('refuses a stale revision with the current one', async () => {
      const role = await makeRole(app, admin);
      await save(admin, { id: role.id, expectedRevision: 1, hourlyRateMinor: '100' });
      const res = await save(admin, { id: role.id, expectedRevision: 1, hourlyRateMinor: '200' });
      assertError(res, 409, 'revision_conflict', 'expectedRevision');
      assert.equal(res.error.current_revision, 2);
      assert.equal(asMinor((await stored(role.id)).hourly_rate_minor), 100n);
    });

    it('replays a retried create once', async () => {
      const input = { ...full, name: 'Replayed role' };
      const first = await save(admin, input, 'role-replay-0001');
      const again = await save(admin, input, 'role-replay-0001');
      assert.equal(first.status, 200);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const rows = await app.services.db.kysely
        .selectFrom('job_roles')
        .select('id')
        .where('organization_id', '=', admin.organizationId)
        .where('name', '=', 'Replayed role')
        .execute();
      assert.equal(rows.length, 1);
    });

    it("answers 404 for another organization's role", async () => {
      const stranger = await createCaller(app);
      const theirs = await makeRole(app, stranger);
      assertError(
        await save(admin, { id: theirs.id, expectedRevision: 1, name: 'Mine' }),
        404,
        'not_found',
        'id',
      );
      assertError(await save(admin, { id: OTHER_ID, expectedRevision: 1 }), 404, 'not_found', 'id');
      assert.equal((await stored(theirs.id)).name, theirs.name);
    });

    it('refuses keys without accounting:write', async () => {
      const reader = await createCaller(app, {
        organizationId: admin.organizationId,
        scopes: ['accounting:read'],
      });
      assertError(await save(reader, { ...full, name: 'Nope' }), 403, 'insufficient_scope');
      const writerOnly = await createCaller(app, {
        organizationId: admin.organizationId,
        scopes: ['accounting:write'],
      });
      assertError(await save(writerOnly, { ...full, name: 'Nope' }), 403, 'insufficient_scope');
    });

    describe('contractorOps.roles.list', () => {
      let org: Caller;
      before(async () => {
        org = await createCaller(app);
        await makeRole(app, org, { name: 'delta' });
        await makeRole(app, org, { name: 'Alpha' });
        await makeRole(app, org, { name: 'charlie', active: false });
        await makeRole(app, org, { name: 'Bravo' });
        await makeRole(app, await createCaller(app), { name: 'Aardvark (other org)' });
      });

      it('lists the organization roles by name, with pages', async () => {
        const res = await call(app.baseUrl, 'contractorOps.roles.list', {}, { token: org.token });
        assert.equal(res.status, 200);
        const items = res.data.items as Array<{ name: string }>;
        assert.deepEqual(
          items.map((r) => r.name),
          ['Alpha', 'Bravo', 'charlie', 'delta'],
        );
        assert.equal(res.data.nextOffset, null);
        const page = await call(
          app.baseUrl,
          'contractorOps.roles.list',
          { limit: 2, offset: 1 },
          { token: org.token, method: 'GET' },
        );
        assert.deepEqual(
          (page.data.items as Array<{ name: string }>).map((r) => r.name),
          ['Bravo', 'charlie'],
        );
        assert.equal(page.data.nextOffset, 3);
      });

      it('filters by active', async () => {
        const active = await call(
          app.baseUrl,
          'contractorOps.roles.list',
          { active: true },
          { token: org.token, method: 'GET' },
        );
        assert.deepEqual(
          (active.data.items as Array<{ name: string }>).map((r) => r.name),
          ['Alpha', 'Bravo', 'delta'],
        );
        const inactive = await call(
          app.baseUrl,
          'contractorOps.roles.list',
          { active: false },
          { token: org.token },
        );
        assert.deepEqual(
          (inactive.data.items as Array<{ name: string }>).map((r) => r.name),
          ['charlie'],
        );
      });

      it('refuses bad parameters and keys without accounting:read', async () => {
        assertError(
          await call(app.baseUrl, 'contractorOps.roles.list', { limit: 0 }, { token: org.token }),
          400,
          'invalid_input',
          'limit',
        );
        assertError(
          await call(app.baseUrl, 'contractorOps.roles.list', { active: 'yes' }, { token: org.token }),
          400,
          'invalid_input',
          'active',
        );
        assertError(
          await call(
            app.baseUrl,
            'contractorOps.roles.list',
            { active: 'yes' },
            { token: org.token, method: 'GET' },
          ),
          400,
          'invalid_input',
          'active',
        );
        assertError(
          await call(app.baseUrl, 'contractorOps.roles.list', { status: 'x' }, { token: org.token }),
          400,
          'unknown_field',
          'status',
        );
        const writer = await createCaller(app, {
          organizationId: org.organizationId,
          scopes: ['accounting:write'],
        });
        assertError(
          await call(app.baseUrl, 'contractorOps.roles.list', {}, { token: writer.token }),
          403,
          'insufficient_scope',
        );
        const financeOrg = await createCaller(app, { role: 'finance', organizationId: org.organizationId });
        assert.equal(
          (await call(app.baseUrl, 'contractorOps.roles.list', {}, { token: financeOrg.token })).status,
          200,
        );
      });
    });
  });
}
