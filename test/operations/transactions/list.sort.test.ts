import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';
import { cardAccount, cardTransaction } from '../matching/helpers.ts';

// transactions.list `sort` (issue 30 part 4, decision 486): both directions of the booked date and
// the signed amount, stable across offset pages, with the filters.

for (const dialect of DIALECTS) {
  describe(`transactions.list sort (${dialect})`, () => {
    let app: TestApp;
    let caller: Caller;
    const names = new Map<string, string>();

    const order = async (input: Record<string, unknown>, limit = 2) => {
      const seen: string[] = [];
      let offset: number | null = 0;
      while (offset !== null) {
        const res = await call(
          app.baseUrl,
          'transactions.list',
          { ...input, limit, offset },
          { token: caller.token, method: 'GET' },
        );
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const page = res.data as { items: { id: string }[]; nextOffset: number | null };
        seen.push(...page.items.map((t) => names.get(t.id) ?? 'stranger'));
        offset = page.nextOffset;
      }
      return seen;
    };

    before(async () => {
      app = await startTestApp(dialect);
      caller = await createCaller(app);
      const card = await cardAccount(app, caller);
      const lines: Array<[string, string, string]> = [
        ['rent', '2026-01-05', '-120000'],
        ['coffee', '2026-01-20', '-450'],
        ['refund', '2026-01-12', '2500'],
        ['books', '2026-01-20', '-3999'],
        ['fee', '2026-01-01', '-450'],
      ];
      for (const [name, date, amount] of lines) {
        const t = await cardTransaction(app, caller, card, date, amount, name.toUpperCase());
        names.set(t.id, name);
      }
      // Another organization's lines never show.
      const stranger = await createCaller(app);
      await cardTransaction(app, stranger, await cardAccount(app, stranger), '2026-01-10', '-1', 'OTHER');
    });
    after(() => app?.close());

    it('orders by date and by amount both ways, the same on every page size', async () => {
      const dateDesc = await order({});
      assert.deepEqual(dateDesc.slice(2), ['refund', 'rent', 'fee']);
      assert.deepEqual(new Set(dateDesc.slice(0, 2)), new Set(['coffee', 'books']));
      assert.deepEqual(await order({ sort: 'date_desc' }), dateDesc, 'the default is date_desc');
      const dateAsc = await order({ sort: 'date_asc' });
      assert.deepEqual(dateAsc.slice(0, 3), ['fee', 'rent', 'refund']);
      // Equal days go by id in the order's direction, so ascending is descending reversed.
      assert.deepEqual(dateAsc, [...dateDesc].reverse());
      assert.deepEqual(await order({ sort: 'amount_desc' }), ['refund', 'coffee', 'fee', 'books', 'rent']);
      assert.deepEqual(await order({ sort: 'amount_asc' }), ['rent', 'books', 'coffee', 'fee', 'refund']);
      for (const sort of ['date_asc', 'amount_desc', 'amount_asc'])
        assert.deepEqual(await order({ sort }, 3), await order({ sort }, 1), sort);
    });

    it('sorts within the filters', async () => {
      assert.deepEqual(await order({ sort: 'amount_asc', from: '2026-01-10', to: '2026-01-31' }), [
        'books',
        'coffee',
        'refund',
      ]);
      assert.deepEqual(await order({ sort: 'amount_desc', search: 'o' }), ['coffee', 'books']);
    });

    it('refuses an order it does not offer, naming sort', async () => {
      for (const sort of ['amount', 'merchant_asc', '']) {
        const res = await call(app.baseUrl, 'transactions.list', { sort }, { token: caller.token });
        assertError(res, 400, 'invalid_input', sort);
        assert.equal(res.error.field, 'sort');
      }
    });
  });
}
