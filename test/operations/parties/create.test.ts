import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createParty, eventsOf, type Json } from '../../invoicing/ops-support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { auditRows } from '../../support/audit.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';

for (const dialect of DIALECTS) {
  describe(`parties operations (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let other: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      other = await createCaller(app, { role: 'finance' });
    });
    after(() => app.close());

    it('creates a party and stores it', async () => {
      const party = await createParty(app, admin, {
        name: 'Café Zoë Ltd',
        email: 'Accounts@Zoe.example',
        addressLines: ['12 Rue Principale', 'Montréal QC H2X 1Y4'],
        country: 'CA',
        taxId: 'GST 123456789',
        defaultCurrency: 'CAD',
      });
      assert.equal(party.name, 'Café Zoë Ltd');
      assert.equal(party.email, 'Accounts@Zoe.example');
      assert.deepEqual(party.address_lines, ['12 Rue Principale', 'Montréal QC H2X 1Y4']);
      assert.equal(party.revision, 1);
      const row = await app.services.db.kysely
        .selectFrom('parties')
        .selectAll()
        .where('id', '=', String(party.id))
        .executeTakeFirstOrThrow();
      assert.equal(row.organization_id, admin.organizationId);
      assert.equal(row.email_normalized, 'accounts@zoe.example');
      assert.equal(row.default_currency, 'CAD');
      const got = await call(
        app.baseUrl,
        'parties.get',
        { id: party.id },
        { token: admin.token, method: 'GET' },
      );
      assert.deepEqual(got.data, party);
    });

    it('refuses a second party with the same email, ignoring case (409 party_email_taken)', async () => {
      await createParty(app, admin, { email: 'dup@example.com' });
      const res = await call(
        app.baseUrl,
        'parties.create',
        { name: 'Dup', email: 'DUP@example.com' },
        { token: admin.token },
      );
      assert.equal(res.status, 409);
      assert.equal(res.error.code, 'party_email_taken');
      assert.equal(res.error.field, 'email');
      // Parties without email never collide; another organization may reuse the address.
      await createParty(app, admin, { email: undefined });
      await createParty(app, admin, { email: undefined });
      await createParty(app, other, { email: 'dup@example.com' });
    });

    it('refuses bad input with exact codes and changes nothing', async () => {
      const before = await app.services.db.kysely.selectFrom('parties').select('id').execute();
      const cases: [Json, number, string, string | undefined][] = [
        [{}, 400, 'invalid_input', 'name'],
        [{ name: '' }, 400, 'invalid_input', 'name'],
        [{ name: 'x'.repeat(201) }, 400, 'invalid_input', 'name'],
        [{ name: 'A', email: 'not-an-email' }, 400, 'invalid_input', 'email'],
        [{ name: 'A', country: 'ca' }, 400, 'invalid_input', 'country'],
        [{ name: 'A', defaultCurrency: 'usd' }, 400, 'invalid_input', 'defaultCurrency'],
        [{ name: 'A', defaultCurrency: 'XXX' }, 400, 'unsupported_currency', 'defaultCurrency'],
        [
          { name: 'A', addressLines: ['1', '2', '3', '4', '5', '6', '7'] },
          400,
          'invalid_input',
          'addressLines',
        ],
        [{ name: 'A', taxId: '' }, 400, 'invalid_input', 'taxId'],
        [{ name: 'A', nickname: 'x' }, 400, 'unknown_field', 'nickname'],
      ];
      for (const [input, status, code, field] of cases) {
        const res = await call(app.baseUrl, 'parties.create', input, { token: admin.token });
        assert.equal(res.status, status, JSON.stringify(input));
        assert.equal(res.error.code, code, JSON.stringify(input));
        assert.equal(res.error.field, field, JSON.stringify(input));
      }
      const afterRows = await app.services.db.kysely.selectFrom('parties').select('id').execute();
      assert.equal(afterRows.length, before.length);
    });

    it('updates with expectedRevision, clears with null, and refuses a stale revision', async () => {
      const party = await createParty(app, admin, { country: 'CA', taxId: 'T-1' });
      const res = await call(
        app.baseUrl,
        'parties.update',
        { id: party.id, expectedRevision: 1, name: 'Renamed', taxId: null, addressLines: ['1 Main St'] },
        { token: admin.token },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.name, 'Renamed');
      assert.equal(res.data.tax_id, null);
      assert.equal(res.data.country, 'CA');
      assert.deepEqual(res.data.address_lines, ['1 Main St']);
      assert.equal(res.data.revision, 2);
      const stale = await call(
        app.baseUrl,
        'parties.update',
        { id: party.id, expectedRevision: 1, name: 'Again' },
        { token: admin.token },
      );
      assert.equal(stale.status, 409);
      assert.equal(stale.error.code, 'revision_conflict');
      assert.equal(stale.error.current_revision, 2);
      const audit = await auditRows(
        app,
        { recordId: String(party.id) },
        { columns: ['before_revision', 'after_revision'], orderBy: ['after_revision'] },
      );
      assert.deepEqual(
        audit.map((a) => [a.before_revision, a.after_revision]),
        [
          [null, 1],
          [1, 2],
        ],
      );
    });

    it('records party.created with the party and party.updated with only what changed', async () => {
      const party = await createParty(app, admin, {
        name: 'Evented Ltd',
        email: 'ev@evented.example',
        country: 'CA',
      });
      const updated = await call(
        app.baseUrl,
        'parties.update',
        { id: party.id, expectedRevision: 1, name: 'Evented Inc.', country: 'CA', taxId: 'GST 1' },
        { token: admin.token },
      );
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      const events = await eventsOf(app, String(party.id));
      assert.deepEqual(
        events.map((e) => [e.type, e.subject.type, e.data]),
        [
          [
            'party.created',
            'party',
            {
              name: 'Evented Ltd',
              email: 'ev@evented.example',
              addressLines: [],
              country: 'CA',
              taxId: null,
              defaultCurrency: null,
            },
          ],
          ['party.updated', 'party', { name: 'Evented Inc.', taxId: 'GST 1' }],
        ],
      );
    });

    it("refuses to take another party's email on update", async () => {
      await createParty(app, admin, { email: 'taken@example.com' });
      const party = await createParty(app, admin);
      const res = await call(
        app.baseUrl,
        'parties.update',
        { id: party.id, expectedRevision: 1, email: 'TAKEN@example.com' },
        { token: admin.token },
      );
      assert.equal(res.status, 409);
      assert.equal(res.error.code, 'party_email_taken');
    });

    it("treats another organization's party as not found", async () => {
      const party = await createParty(app, other);
      const got = await call(app.baseUrl, 'parties.get', { id: party.id }, { token: admin.token });
      assert.equal(got.status, 404);
      assert.equal(got.error.code, 'not_found');
      const upd = await call(
        app.baseUrl,
        'parties.update',
        { id: party.id, expectedRevision: 1, name: 'Mine now' },
        { token: admin.token },
      );
      assert.equal(upd.status, 404);
    });

    it('replays a create with the same idempotency key (one party)', async () => {
      const key = 'party-create-replay-1';
      const input = { name: 'Replay Co', email: 'replay@example.com' };
      const first = await call(app.baseUrl, 'parties.create', input, {
        token: admin.token,
        idempotencyKey: key,
      });
      const second = await call(app.baseUrl, 'parties.create', input, {
        token: admin.token,
        idempotencyKey: key,
      });
      assert.equal(first.status, 200);
      assert.deepEqual(second.data, first.data);
      const rows = await app.services.db.kysely
        .selectFrom('parties')
        .select('id')
        .where('email_normalized', '=', 'replay@example.com')
        .execute();
      assert.equal(rows.length, 1);
    });

    it('lists newest first with search on name and email, and pages by offset', async () => {
      const caller = await createCaller(app);
      const names = ['Alpha Works', 'Beta Labs', 'Gamma Alpha', 'Delta'];
      for (const name of names) {
        await createParty(app, caller, { name, email: `${name.split(' ')[0]?.toLowerCase()}@mail.example` });
        app.clock.advance(1000);
      }
      const all = await call(app.baseUrl, 'parties.list', {}, { token: caller.token, method: 'GET' });
      assert.deepEqual(
        (all.data.items as Json[]).map((p) => p.name),
        [...names].reverse(),
      );
      const search = await call(app.baseUrl, 'parties.list', { search: 'ALPHA' }, { token: caller.token });
      assert.deepEqual(
        (search.data.items as Json[]).map((p) => p.name),
        ['Gamma Alpha', 'Alpha Works'],
      );
      const byEmail = await call(app.baseUrl, 'parties.list', { search: 'beta@' }, { token: caller.token });
      assert.deepEqual(
        (byEmail.data.items as Json[]).map((p) => p.name),
        ['Beta Labs'],
      );
      const wildcard = await call(app.baseUrl, 'parties.list', { search: '%' }, { token: caller.token });
      assert.equal((wildcard.data.items as Json[]).length, 0);
      const page = await call(app.baseUrl, 'parties.list', { limit: 3, offset: 1 }, { token: caller.token });
      assert.deepEqual(
        (page.data.items as Json[]).map((p) => p.name),
        ['Gamma Alpha', 'Beta Labs', 'Alpha Works'],
      );
      assert.equal(page.data.nextOffset, null);
    });
  });
}
