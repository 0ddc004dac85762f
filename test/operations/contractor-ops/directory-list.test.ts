import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';
import { assertError, hoursIn, makeContractor, makeRole, ok, signAs } from '../contractors/helpers.ts';

for (const dialect of DIALECTS) {
  describe(`contractorOps.directory.list (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let ada: { id: string };
    let grace: { id: string };
    let role: { id: string };
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      role = await makeRole(app, admin, {
        name: 'Engineer',
        hourlyRateMinor: '12050',
        currency: 'USD',
        payCadence: 'semimonthly',
      });
      ada = await makeContractor(app, admin, {
        displayName: 'Ada',
        legalName: 'Ada Lovelace',
        country: 'GB',
        jobRoleId: role.id,
      });
      app.clock.advance(1000);
      grace = await makeContractor(app, admin, { displayName: 'Grace', legalName: 'Grace Hopper 100%' });
      app.clock.advance(1000);
      const linus = await makeContractor(app, admin, { displayName: 'Linus', legalName: 'Linus T' });
      await call(
        app.baseUrl,
        'contractors.update',
        { id: linus.id, expectedRevision: 1, active: false },
        { token: admin.token },
      );
      await hoursIn(app, admin, ada.id, '7.25', 'submitted');
      await hoursIn(app, admin, ada.id, '10.00', 'approved');
      await hoursIn(app, admin, ada.id, '4.00', 'rejected');
      await hoursIn(app, admin, ada.id, '9.99', 'paid', '2026-08-03');
      await seedAgreement(ada.id, false);
      await seedAgreement(grace.id, true); // voided: not on file
      // Another organization's contractor never shows up.
      await makeContractor(app, await createCaller(app), { displayName: 'Ada elsewhere' });
    });
    after(() => app.close());

    /** An agreement sent and signed through the operations and the signing domain; voided on request. */
    async function seedAgreement(contractorId: string, voided: boolean) {
      const template = await ok(app, admin, 'contractors.templates.createDraft', {
        name: 'Standard',
        markdown: '# Standard',
      });
      const sent = await ok(app, admin, 'contractors.agreements.send', {
        contractorId,
        templateId: template.id,
      });
      await signAs(app, admin.organizationId, contractorId, sent);
      if (voided) {
        await ok(app, admin, 'contractors.agreements.void', {
          id: sent.id,
          expectedRevision: 2,
          reason: 'Ended',
        });
      }
    }

    const list = (input: Record<string, unknown> = {}, method: 'GET' | 'POST' = 'POST') =>
      call(app.baseUrl, 'contractorOps.directory.list', input, { token: admin.token, method });

    it('lists contractors newest first with role, rate, cadence, agreement and pending hours', async () => {
      const res = await list();
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const items = res.data.items as Array<Record<string, unknown>>;
      assert.deepEqual(
        items.map((i) => i.display_name),
        ['Linus', 'Grace', 'Ada'],
      );
      const adaRow = items[2];
      assert.deepEqual(adaRow, {
        id: ada.id,
        display_name: 'Ada',
        legal_name: 'Ada Lovelace',
        email: adaRow?.email,
        country: 'GB',
        active: true,
        job_role: { id: role.id, name: 'Engineer' },
        hourly_rate_minor: '12050',
        currency: 'USD',
        pay_cadence: 'semimonthly',
        agreement_on_file: true,
        pending_hours: '17.25',
        revision: 1,
        created_at: '2026-01-15T12:00:00.000Z',
      });
      const graceRow = items[1];
      assert.equal(graceRow?.job_role, null);
      assert.equal(graceRow?.hourly_rate_minor, null);
      assert.equal(graceRow?.currency, null);
      assert.equal(graceRow?.pay_cadence, null);
      assert.equal(graceRow?.agreement_on_file, false);
      assert.equal(graceRow?.pending_hours, '0.00');
      assert.equal(items[0]?.active, false);
    });

    it('pages with limit and offset', async () => {
      const first = await list({ limit: 2 }, 'GET');
      assert.equal((first.data.items as unknown[]).length, 2);
      assert.equal(first.data.nextOffset, 2);
      const second = await list({ limit: 2, offset: 2 }, 'GET');
      assert.deepEqual(
        (second.data.items as Array<{ id: string }>).map((i) => i.id),
        [ada.id],
      );
      assert.equal(second.data.nextOffset, null);
    });

    it('filters by name (case-insensitive, wildcards literal) and by active', async () => {
      const byName = await list({ query: 'LOVELACE' });
      assert.deepEqual(
        (byName.data.items as Array<{ id: string }>).map((i) => i.id),
        [ada.id],
      );
      const percent = await list({ query: '100%' });
      assert.deepEqual(
        (percent.data.items as Array<{ id: string }>).map((i) => i.id),
        [grace.id],
      );
      assert.deepEqual((await list({ query: '_' })).data.items, []);
      const inactive = await list({ active: false }, 'GET');
      assert.deepEqual(
        (inactive.data.items as Array<{ display_name: string }>).map((i) => i.display_name),
        ['Linus'],
      );
      const active = await list({ active: true, query: 'a' });
      assert.deepEqual(
        (active.data.items as Array<{ display_name: string }>).map((i) => i.display_name),
        ['Grace', 'Ada'],
      );
    });

    it('refuses bad parameters', async () => {
      assertError(await list({ limit: 101 }), 400, 'invalid_input', 'limit');
      assertError(await list({ offset: -1 }), 400, 'invalid_input', 'offset');
      assertError(await list({ query: 'q'.repeat(201) }), 400, 'invalid_input', 'query');
      assertError(await list({ active: 1 }), 400, 'invalid_input', 'active');
      assertError(await list({ role: 'x' }, 'GET'), 400, 'unknown_parameter', 'role');
    });

    it('needs accounting:read and serves finance members', async () => {
      const writer = await createCaller(app, {
        organizationId: admin.organizationId,
        scopes: ['accounting:write'],
      });
      assertError(
        await call(app.baseUrl, 'contractorOps.directory.list', {}, { token: writer.token }),
        403,
        'insufficient_scope',
      );
      const finance = await createCaller(app, { role: 'finance', organizationId: admin.organizationId });
      const res = await call(app.baseUrl, 'contractorOps.directory.list', {}, { token: finance.token });
      assert.equal((res.data.items as unknown[]).length, 3);
    });
  });
}
