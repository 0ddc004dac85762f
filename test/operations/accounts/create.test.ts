import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount, type Json, ok } from '../../books/support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';

for (const dialect of DIALECTS) {
  describe(`accounts and cards (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    it('creates, reads, lists, updates (revision-checked) and archives an account with its cards', async () => {
      const account = await createAccount(app, admin, {
        name: 'Main',
        currency: 'CAD',
        accountRef: 'DE89370400440532013000',
        openingBalanceMinor: '-1500',
        openingDate: '2026-01-01',
      });
      assert.equal(account.revision, 1);
      assert.equal(account.opening_balance_minor, '-1500');
      assert.equal(account.account_ref, 'DE89370400440532013000');
      assert.deepEqual(await ok(app, admin, 'accounts.get', { id: account.id }), account);
      const row = await app.services.db.kysely
        .selectFrom('books_accounts')
        .selectAll()
        .where('id', '=', String(account.id))
        .executeTakeFirstOrThrow();
      assert.equal(row.organization_id, admin.organizationId);

      const updated = await ok(app, admin, 'accounts.update', {
        id: account.id,
        expectedRevision: 1,
        name: 'Operating',
        accountRef: null,
      });
      assert.equal(updated.revision, 2);
      assert.equal(updated.account_ref, null);
      assert.equal(updated.currency, 'CAD');
      const stale = await call(
        app.baseUrl,
        'accounts.update',
        { id: account.id, expectedRevision: 1, name: 'x' },
        { token: admin.token },
      );
      assert.equal(stale.status, 409);
      assert.equal(stale.error.code, 'revision_conflict');

      const card = await ok(app, admin, 'cards.create', {
        accountId: account.id,
        holderMemberId: admin.memberId,
        lastFour: '4242',
        brand: 'Visa',
      });
      assert.equal(card.last_four, '4242');
      assert.equal(card.holder_member_id, admin.memberId);
      const cards = await ok<{ items: Json[] }>(app, admin, 'cards.list', { accountId: account.id });
      assert.deepEqual(
        cards.items.map((c) => c.id),
        [card.id],
      );

      const archived = await ok(app, admin, 'accounts.archive', { id: account.id, expectedRevision: 2 });
      assert.ok(archived.archived_at);
      const cardAfter = await ok(app, admin, 'cards.get', { id: card.id });
      assert.ok(cardAfter.archived_at);
      assert.equal(cardAfter.revision, 2);
      const listed = await ok<{ items: Json[] }>(app, admin, 'accounts.list', {});
      assert.ok(!listed.items.some((a) => a.id === account.id));
      const all = await ok<{ items: Json[] }>(app, admin, 'accounts.list', { includeArchived: true });
      assert.ok(all.items.some((a) => a.id === account.id));
      const again = await call(
        app.baseUrl,
        'accounts.archive',
        { id: account.id, expectedRevision: 3 },
        { token: admin.token },
      );
      assert.equal(again.status, 409);
      assert.equal(again.error.code, 'invalid_state');
    });

    it('refuses bad input with exact codes', async () => {
      const account = await createAccount(app, admin);
      const cases: Array<[string, Json, number, string, string]> = [
        ['accounts.create', { name: 'A', kind: 'brokerage', currency: 'EUR' }, 400, 'invalid_input', 'kind'],
        [
          'accounts.create',
          { name: 'A', kind: 'cash', currency: 'XXX' },
          400,
          'unsupported_currency',
          'currency',
        ],
        [
          'accounts.create',
          { name: 'A', kind: 'cash', currency: 'EUR', accountRef: '12' },
          400,
          'invalid_input',
          'accountRef',
        ],
        [
          'accounts.create',
          { name: 'A', kind: 'cash', currency: 'EUR', openingBalanceMinor: '1.5' },
          400,
          'invalid_input',
          'openingBalanceMinor',
        ],
        [
          'cards.create',
          { accountId: account.id, holderMemberId: admin.memberId, lastFour: '42a2' },
          400,
          'invalid_input',
          'lastFour',
        ],
        [
          'cards.create',
          { accountId: account.id, holderMemberId: '01927f3e-6a1c-7b2d-8e4f-0123456789ab', lastFour: '4242' },
          400,
          'invalid_input',
          'holderMemberId',
        ],
        [
          'cards.create',
          {
            accountId: '01927f3e-6a1c-7b2d-8e4f-0123456789ab',
            holderMemberId: admin.memberId,
            lastFour: '4242',
          },
          404,
          'not_found',
          'accountId',
        ],
      ];
      for (const [operation, input, status, code, field] of cases) {
        const res = await call(app.baseUrl, operation, input, { token: admin.token });
        assert.equal(
          res.status,
          status,
          `${operation} ${JSON.stringify(input)}: ${JSON.stringify(res.body)}`,
        );
        assert.equal(res.error.code, code);
        assert.equal(res.error.field, field);
      }
    });

    it('a card holder from another organization is refused; a card can change holder', async () => {
      const account = await createAccount(app, admin);
      const stranger = await createCaller(app);
      const res = await call(
        app.baseUrl,
        'cards.create',
        { accountId: account.id, holderMemberId: stranger.memberId, lastFour: '1111' },
        { token: admin.token },
      );
      assert.equal(res.status, 400);
      assert.equal(res.error.field, 'holderMemberId');
      const card = await ok(app, admin, 'cards.create', {
        accountId: account.id,
        holderMemberId: admin.memberId,
        lastFour: '1111',
      });
      const changed = await ok(app, admin, 'cards.update', {
        id: card.id,
        expectedRevision: 1,
        label: 'Fuel',
        brand: null,
      });
      assert.equal(changed.label, 'Fuel');
      assert.equal(changed.revision, 2);
      const archived = await ok(app, admin, 'cards.archive', { id: card.id, expectedRevision: 2 });
      assert.ok(archived.archived_at);
    });
  });
}
