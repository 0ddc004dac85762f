import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asBool } from '../../../src/db/values.ts';
import { type Caller, createCaller, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';
import {
  assertError,
  auditFor,
  caller,
  eventsFor,
  fixedPayout,
  hoursIn,
  makeContractor,
  OTHER_ID,
  startWithMembers,
  storedContractor,
} from './helpers.ts';

for (const dialect of DIALECTS) {
  describe(`contractors.update (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let finance: Caller;
    before(async () => {
      ({ app, admin, finance } = await startWithMembers(dialect));
    });
    after(() => app.close());

    const update = caller(() => app, 'contractors.update');

    const stored = (id: string) => storedContractor(app, id);

    it('changes names and country, bumps the revision, audits and emits the changed fields', async () => {
      const c = await makeContractor(app, admin, { country: 'CA' });
      const res = await update(finance, {
        id: c.id,
        expectedRevision: 1,
        displayName: 'Ada L.',
        legalName: 'Ada King, Countess of Lovelace',
        country: 'GB',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.display_name, 'Ada L.');
      assert.equal(res.data.legal_name, 'Ada King, Countess of Lovelace');
      assert.equal(res.data.country, 'GB');
      assert.equal(res.data.revision, 2);
      const row = await stored(c.id);
      assert.deepEqual(
        [row.display_name, row.legal_name, row.country, row.revision],
        ['Ada L.', 'Ada King, Countess of Lovelace', 'GB', 2],
      );
      assert.deepEqual((await auditFor(app, c.id)).at(-1), {
        operation: 'contractors.update',
        before: 1,
        after: 2,
        actor: finance.memberId,
      });
      assert.deepEqual(await eventsFor(app, c.id, 'contractor.updated'), [
        {
          type: 'contractor.updated',
          data: { displayName: 'Ada L.', legalName: 'Ada King, Countess of Lovelace', country: 'GB' },
        },
      ]);
    });

    it('reports only the fields that changed and clears the country with null', async () => {
      const c = await makeContractor(app, admin, { country: 'CA' });
      const res = await update(admin, {
        id: c.id,
        expectedRevision: 1,
        displayName: c.display_name,
        country: null,
      });
      assert.equal(res.status, 200);
      assert.equal(res.data.country, null);
      assert.equal((await stored(c.id)).country, null);
      assert.deepEqual(await eventsFor(app, c.id, 'contractor.updated'), [
        { type: 'contractor.updated', data: { country: null } },
      ]);
    });

    it('leaves the revision alone when nothing changes (no audit, no event)', async () => {
      const c = await makeContractor(app, admin);
      const res = await update(admin, {
        id: c.id,
        expectedRevision: 1,
        displayName: c.display_name,
        active: true,
        acknowledgeUnpaid: true,
      });
      assert.equal(res.status, 200);
      assert.equal(res.data.revision, 1);
      assert.equal((await stored(c.id)).revision, 1);
      assert.equal((await auditFor(app, c.id)).length, 1, 'only the create');
      assert.deepEqual(await eventsFor(app, c.id, 'contractor.updated'), []);
      const stale = await update(admin, { id: c.id, expectedRevision: 2, displayName: c.display_name });
      assertError(stale, 409, 'revision_conflict', 'expectedRevision');
    });

    it('refuses bad input with the exact code and field, changing nothing', async () => {
      const c = await makeContractor(app, admin);
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ id: 'not-a-uuid', expectedRevision: 1 }, 'invalid_input', 'id'],
        [{ expectedRevision: 1 }, 'invalid_input', 'id'],
        [{ id: c.id }, 'invalid_input', 'expectedRevision'],
        [{ id: c.id, expectedRevision: 0 }, 'invalid_input', 'expectedRevision'],
        [{ id: c.id, expectedRevision: '1' }, 'invalid_input', 'expectedRevision'],
        [{ id: c.id, expectedRevision: 9007199254740992 }, 'invalid_input', 'expectedRevision'],
        [{ id: c.id, expectedRevision: 1, displayName: '' }, 'invalid_input', 'displayName'],
        [{ id: c.id, expectedRevision: 1, displayName: 'x'.repeat(201) }, 'invalid_input', 'displayName'],
        [{ id: c.id, expectedRevision: 1, legalName: '' }, 'invalid_input', 'legalName'],
        [{ id: c.id, expectedRevision: 1, legalName: 'x'.repeat(301) }, 'invalid_input', 'legalName'],
        [{ id: c.id, expectedRevision: 1, country: 'ca' }, 'invalid_input', 'country'],
        [{ id: c.id, expectedRevision: 1, country: 'CAN' }, 'invalid_input', 'country'],
        [{ id: c.id, expectedRevision: 1, active: 'false' }, 'invalid_input', 'active'],
        [{ id: c.id, expectedRevision: 1, acknowledgeUnpaid: 1 }, 'invalid_input', 'acknowledgeUnpaid'],
        [{ id: c.id, expectedRevision: 1, email: 'x@example.com' }, 'unknown_field', 'email'],
        [{ id: c.id, expectedRevision: 1, jobRoleId: null }, 'unknown_field', 'jobRoleId'],
        [{ id: c.id, expectedRevision: 1, idempotencyKey: 'short' }, 'invalid_input', 'idempotencyKey'],
        [
          { id: c.id, expectedRevision: 1, idempotencyKey: 'k'.repeat(151) },
          'invalid_input',
          'idempotencyKey',
        ],
      ];
      for (const [input, code, field] of cases) {
        const res = await call(app.baseUrl, 'contractors.update', input, {
          token: admin.token,
          idempotencyKey: typeof input.idempotencyKey === 'string' ? null : undefined,
        });
        assertError(res, 400, code, field);
      }
      const row = await stored(c.id);
      assert.equal(row.revision, 1);
      assert.equal(row.display_name, c.display_name);
    });

    it('refuses a stale revision with 409 and the current revision', async () => {
      const c = await makeContractor(app, admin);
      assert.equal((await update(admin, { id: c.id, expectedRevision: 1, displayName: 'One' })).status, 200);
      const res = await update(admin, { id: c.id, expectedRevision: 1, displayName: 'Two' });
      assertError(res, 409, 'revision_conflict', 'expectedRevision');
      assert.equal(res.error.current_revision, 2);
      assert.equal((await stored(c.id)).display_name, 'One');
    });

    it('replays a retried request once', async () => {
      const c = await makeContractor(app, admin);
      const input = { id: c.id, expectedRevision: 1, displayName: 'Replayed' };
      const first = await update(admin, input, 'update-replay-0001');
      const again = await update(admin, input, 'update-replay-0001');
      assert.equal(first.status, 200);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal((await stored(c.id)).revision, 2);
      assert.equal((await eventsFor(app, c.id, 'contractor.updated')).length, 1);
    });

    it("answers 404 for another organization's contractor and for unknown ids", async () => {
      const stranger = await createCaller(app);
      const theirs = await makeContractor(app, stranger);
      assertError(
        await update(admin, { id: theirs.id, expectedRevision: 1, displayName: 'X' }),
        404,
        'not_found',
        'id',
      );
      assertError(await update(admin, { id: OTHER_ID, expectedRevision: 1 }), 404, 'not_found', 'id');
      assert.equal((await stored(theirs.id)).display_name, theirs.display_name);
    });

    it('lets only administrators turn portal access on or off', async () => {
      const c = await makeContractor(app, admin);
      const refused = await update(finance, { id: c.id, expectedRevision: 1, active: false });
      assertError(refused, 403, 'role_not_allowed', 'active');
      assert.deepEqual(refused.error.allowed_roles, ['admin']);
      assert.equal(asBool((await stored(c.id)).active), true);
      const off = await update(admin, { id: c.id, expectedRevision: 1, active: false });
      assert.equal(off.status, 200);
      assert.equal(off.data.active, false);
      const on = await update(admin, { id: c.id, expectedRevision: 2, active: true });
      assert.equal(on.data.active, true);
      assert.equal(asBool((await stored(c.id)).active), true);
      assert.deepEqual(
        (await eventsFor(app, c.id, 'contractor.updated')).map((e) => e.data),
        [{ active: false }, { active: true }],
      );
    });

    it('refuses keys without accounting:write', async () => {
      const reader = await createCaller(app, {
        organizationId: admin.organizationId,
        scopes: ['accounting:read'],
      });
      const c = await makeContractor(app, admin);
      assertError(
        await update(reader, { id: c.id, expectedRevision: 1, displayName: 'X' }),
        403,
        'insufficient_scope',
      );
    });

    it('needs acknowledgeUnpaid to deactivate a contractor with pending hours', async () => {
      const c = await makeContractor(app, admin);
      await hoursIn(app, admin, c.id, '7.25', 'submitted');
      await hoursIn(app, admin, c.id, '1.00', 'approved');
      await hoursIn(app, admin, c.id, '3.00', 'rejected');
      await hoursIn(app, admin, c.id, '12.00', 'paid', '2026-08-03');
      const revision = (await stored(c.id)).revision; // the role assignment is a change too
      const refused = await update(admin, { id: c.id, expectedRevision: revision, active: false });
      assertError(refused, 409, 'unpaid_not_acknowledged', 'acknowledgeUnpaid');
      assert.equal(refused.error.pending_hours, '8.25');
      assert.equal(refused.error.unpaid_payments, 0);
      const notTrue = await update(admin, {
        id: c.id,
        expectedRevision: revision,
        active: false,
        acknowledgeUnpaid: false,
      });
      assertError(notTrue, 409, 'unpaid_not_acknowledged');
      assert.equal(asBool((await stored(c.id)).active), true);

      const ok = await update(admin, {
        id: c.id,
        expectedRevision: revision,
        active: false,
        acknowledgeUnpaid: true,
      });
      assert.equal(ok.status, 200);
      assert.equal(ok.data.active, false);
      assert.deepEqual(
        (await eventsFor(app, c.id, 'contractor.updated')).map((e) => e.data),
        [{ active: false, unpaidAcknowledged: true }],
      );
    });

    it('needs acknowledgeUnpaid for unpaid payments, but not for paid ones', async () => {
      const owed = await makeContractor(app, admin);
      await fixedPayout(app, admin, owed.id);
      const refused = await update(admin, { id: owed.id, expectedRevision: 2, active: false });
      assertError(refused, 409, 'unpaid_not_acknowledged');
      assert.deepEqual([refused.error.pending_hours, refused.error.unpaid_payments], ['0.00', 1]);

      const settled = await makeContractor(app, admin);
      await fixedPayout(app, admin, settled.id, { paidOn: '2026-09-30' });
      await hoursIn(app, admin, settled.id, '3.00', 'paid', '2026-08-03');
      await hoursIn(app, admin, settled.id, '2.00', 'rejected');
      const ok = await update(admin, { id: settled.id, expectedRevision: 2, active: false });
      assert.equal(ok.status, 200);
      assert.deepEqual(
        (await eventsFor(app, settled.id, 'contractor.updated')).map((e) => e.data),
        [{ active: false }],
      );
    });

    it('does not count unpaid work of other contractors', async () => {
      const c = await makeContractor(app, admin);
      const neighbour = await makeContractor(app, admin);
      await hoursIn(app, admin, neighbour.id, '5.00', 'submitted');
      const res = await update(admin, { id: c.id, expectedRevision: 1, active: false });
      assert.equal(res.status, 200);
    });
  });
}
