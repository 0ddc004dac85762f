import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { addMember, createApiKey } from '../../../src/admin/organizations.ts';
import { ACCOUNTING_SCOPES } from '../../../src/contract/access.ts';
import { createAccount, ok } from '../../books/support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';

interface Page {
  items: Array<{
    id: string;
    merchant: string;
    date: string;
    currency: string;
    amountMinor: string;
    lastFour: string;
  }>;
  nextCursor: string | null;
  total: number;
  cards: string[];
}

/** A second member of the caller's organization, with their own key. */
async function colleague(app: TestApp, of: Caller): Promise<Caller> {
  const member = await addMember(app.services.db.kysely, app.clock, {
    organizationId: of.organizationId,
    email: `colleague-${Math.random().toString(36).slice(2)}@example.com`,
    role: 'finance',
  });
  const key = await createApiKey(app.services.db.kysely, app.clock, {
    organizationId: of.organizationId,
    memberId: member.id,
    scopes: ACCOUNTING_SCOPES,
  });
  return { organizationId: of.organizationId, memberId: member.id, token: key.token, role: 'finance' };
}

for (const dialect of DIALECTS) {
  describe(`attention.mine (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app.close());

    const spend = (
      caller: Caller,
      accountId: unknown,
      cardId: unknown,
      date: string,
      amount: string,
      description = 'Taxi',
    ) =>
      ok(app, caller, 'transactions.create', {
        accountId,
        cardId,
        bookedDate: date,
        amountMinor: amount,
        description,
      });

    it('lists exactly the contract’s fields for my cards only, with total and cards', async () => {
      const admin = await createCaller(app);
      const other = await colleague(app, admin);
      const account = await createAccount(app, admin, { kind: 'credit_card', currency: 'CAD' });
      const mine = await ok(app, admin, 'cards.create', {
        accountId: account.id,
        holderMemberId: admin.memberId,
        lastFour: '4242',
      });
      const mine2 = await ok(app, admin, 'cards.create', {
        accountId: account.id,
        holderMemberId: admin.memberId,
        lastFour: '0005',
      });
      const theirs = await ok(app, admin, 'cards.create', {
        accountId: account.id,
        holderMemberId: other.memberId,
        lastFour: '9999',
      });
      await ok(app, admin, 'cards.create', {
        accountId: account.id,
        holderMemberId: admin.memberId,
        lastFour: '7777',
      });
      const a = await spend(admin, account.id, mine.id, '2026-03-01', '-1250', 'UBER *TRIP 12345 TORONTO');
      await spend(admin, account.id, mine2.id, '2026-03-02', '-999');
      const excluded = await spend(admin, account.id, mine.id, '2026-03-03', '-500');
      await ok(app, admin, 'transactions.update', {
        id: excluded.id,
        expectedRevision: excluded.revision,
        excluded: true,
      });
      await spend(admin, account.id, theirs.id, '2026-03-04', '-100');
      await ok(app, admin, 'transactions.create', {
        accountId: account.id,
        bookedDate: '2026-03-05',
        amountMinor: '-42',
        description: 'No card',
      });

      const page = await ok<Page>(app, admin, 'attention.mine', { limit: 10 });
      assert.equal(page.total, 2);
      assert.deepEqual(page.cards, ['0005', '4242']);
      assert.equal(page.nextCursor, null);
      assert.deepEqual(Object.keys(page).sort(), ['cards', 'items', 'nextCursor', 'total']);
      assert.deepEqual(
        page.items.map((item) => Object.keys(item).sort()),
        [
          ['amountMinor', 'currency', 'date', 'id', 'lastFour', 'merchant'],
          ['amountMinor', 'currency', 'date', 'id', 'lastFour', 'merchant'],
        ],
      );
      assert.deepEqual(page.items[1], {
        id: a.id,
        merchant: 'UBER TRIP TORONTO',
        date: '2026-03-01',
        currency: 'CAD',
        amountMinor: '-1250',
        lastFour: '4242',
      });
      const theirsPage = await ok<Page>(app, other, 'attention.mine', {});
      assert.equal(theirsPage.total, 1);
      assert.deepEqual(theirsPage.cards, ['9999']);
      assert.equal(theirsPage.items[0]?.lastFour, '9999');

      // A member without cards gets an empty list; another organization sees nothing of ours.
      const stranger = await createCaller(app);
      assert.deepEqual(await ok<Page>(app, stranger, 'attention.mine', {}), {
        items: [],
        nextCursor: null,
        total: 0,
        cards: [],
      });
      const bad = await call(app.baseUrl, 'attention.mine', { cursor: 'bm9wZQ' }, { token: admin.token });
      assert.equal(bad.status, 400);
      assert.equal(bad.error.field, 'cursor');
    });

    it('cursor pages never skip or repeat while transactions arrive between pages (property)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 25 }),
          fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 10 }),
          fc.integer({ min: 1, max: 6 }),
          async (initialDays, arrivingDays, limit) => {
            const admin = await createCaller(app);
            const account = await createAccount(app, admin, { kind: 'credit_card' });
            const card = await ok(app, admin, 'cards.create', {
              accountId: account.id,
              holderMemberId: admin.memberId,
              lastFour: '1234',
            });
            const date = (d: number) => new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10);
            const initial = new Set<string>();
            for (const d of initialDays)
              initial.add(String((await spend(admin, account.id, card.id, date(d), '-100')).id));
            const seen: string[] = [];
            const arriving = [...arrivingDays];
            let cursor: string | null | undefined;
            do {
              const page: Page = await ok<Page>(app, admin, 'attention.mine', {
                limit,
                ...(cursor ? { cursor } : {}),
              });
              seen.push(...page.items.map((item) => item.id));
              cursor = page.nextCursor;
              const next = arriving.shift();
              if (next !== undefined) await spend(admin, account.id, card.id, date(next), '-7');
            } while (cursor);
            assert.equal(new Set(seen).size, seen.length, 'an item was repeated');
            for (const id of initial) assert.ok(seen.includes(id), 'an item was skipped');
          },
        ),
        { numRuns: 8 },
      );
    });
  });
}
