import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';
import { ublReceipt } from '../../support/receipts.ts';
import { upload } from '../receipts/helpers.ts';

// inbox.list `sort` and `search` (issue 30 part 4, decisions 486 and 487).

interface Item {
  id: string;
  merchant: string | null;
  date: string | null;
  total_minor: string | null;
}

for (const dialect of DIALECTS) {
  describe(`inbox.list sort and search (${dialect})`, () => {
    let app: TestApp;
    let caller: Caller;
    /** By name: three read receipts and one still waiting to be read (no date, no total). */
    const ids: Record<string, string> = {};

    const list = async (input: Record<string, unknown>) => {
      const res = await call(app.baseUrl, 'inbox.list', input, { token: caller.token, method: 'GET' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.data as { items: Item[]; nextCursor: string | null };
    };
    /** Every page of one order, `limit` at a time, as ids. */
    const walk = async (input: Record<string, unknown>, limit: number) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await list({ ...input, limit, ...(cursor ? { cursor } : {}) });
        assert.ok(page.items.length <= limit);
        seen.push(...page.items.map((i) => i.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      return seen;
    };
    const name = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0];

    before(async () => {
      app = await startTestApp(dialect);
      caller = await createCaller(app);
      const receipts: Array<[string, string, string, bigint]> = [
        ['coffee', 'Blue Bottle Coffee', '2026-03-02', 1190n],
        ['hardware', 'Hardware Corner', '2026-01-20', 4200n],
        ['books', 'Bookshop Kiez', '2026-02-11', 123456n],
      ];
      for (const [key, merchant, date, amountMinor] of receipts) {
        const bytes = ublReceipt({ id: `S-${key}-${dialect}`, merchant, date, amountMinor });
        const res = await upload(app, caller, bytes, `${key}-invoice.xml`, 'application/xml');
        ids[key] = (res.data as { item: { id: string } }).item.id;
      }
      // Another organization's receipt of the same total never shows.
      const stranger = await createCaller(app);
      await upload(
        app,
        stranger,
        ublReceipt({
          id: `S-other-${dialect}`,
          merchant: 'Blue Bottle Coffee',
          date: '2026-03-02',
          amountMinor: 1190n,
        }),
        'coffee-invoice.xml',
        'application/xml',
      );
      await app.runJobs();
      // Uploaded after the jobs ran: still waiting, no date and no total.
      const waiting = ublReceipt({
        id: `S-wait-${dialect}`,
        merchant: 'Zebra',
        date: '2026-04-01',
        amountMinor: 500n,
      });
      const res = await upload(app, caller, waiting, 'scan-waiting.xml', 'application/xml');
      ids.waiting = (res.data as { item: { id: string } }).item.id;
    });
    after(() => app?.close());

    it('sorts by document date and by total, both ways, items without the value last, across pages', async () => {
      const order = async (sort: string) => (await walk({ sort }, 1)).map(name);
      assert.deepEqual(await order('date_desc'), ['coffee', 'books', 'hardware', 'waiting']);
      assert.deepEqual(await order('date_asc'), ['hardware', 'books', 'coffee', 'waiting']);
      assert.deepEqual(await order('amount_desc'), ['books', 'hardware', 'coffee', 'waiting']);
      assert.deepEqual(await order('amount_asc'), ['coffee', 'hardware', 'books', 'waiting']);
      assert.deepEqual(await order('received_asc'), ['coffee', 'hardware', 'books', 'waiting']);
      assert.deepEqual(await order('received_desc'), ['waiting', 'books', 'hardware', 'coffee']);
      // Larger pages give the same order (the cursor continues behind a null value too).
      assert.deepEqual((await walk({ sort: 'amount_desc' }, 3)).map(name), await order('amount_desc'));
    });

    it('finds by merchant, by file name and by a total typed as printed, in this organization only', async () => {
      const found = async (search: string, extra: Record<string, unknown> = {}) =>
        (await list({ search, ...extra })).items.map((i) => name(i.id)).sort();
      assert.deepEqual(await found('blue bottle'), ['coffee']);
      assert.deepEqual(await found('SCAN-'), ['waiting']);
      assert.deepEqual(await found('invoice'), ['books', 'coffee', 'hardware']);
      assert.deepEqual(await found('11,90'), ['coffee']);
      assert.deepEqual(await found('11.90'), ['coffee']);
      assert.deepEqual(await found('-11.90'), ['coffee'], 'either sign');
      assert.deepEqual(await found('1.234,56'), ['books']);
      assert.deepEqual(await found('1,234.56'), ['books']);
      assert.deepEqual(await found('42'), ['hardware']);
      assert.deepEqual(await found('100%_'), [], 'wildcards are text');
      assert.deepEqual(await found('invoice', { sort: 'amount_asc' }), ['books', 'coffee', 'hardware']);
      assert.deepEqual(
        (await list({ search: 'invoice', sort: 'amount_asc' })).items.map((i) => name(i.id)),
        ['coffee', 'hardware', 'books'],
      );
      assert.deepEqual(await found('invoice', { state: 'ready' }), (await found('invoice')).filter(Boolean));
    });

    it('refuses an unknown order, an empty search, a cursor of another order and a forged one', async () => {
      const refused = async (input: Record<string, unknown>, field: string) => {
        const res = await call(app.baseUrl, 'inbox.list', input, { token: caller.token });
        assertError(res, 400, 'invalid_input', JSON.stringify(input));
        assert.equal(res.error.field, field);
        return res;
      };
      await refused({ sort: 'merchant' }, 'sort');
      await refused({ search: '' }, 'search');
      await refused({ search: 'x'.repeat(201) }, 'search');
      const first = await list({ sort: 'amount_desc', limit: 1 });
      assert.ok(first.nextCursor);
      const other = await refused({ sort: 'date_desc', cursor: first.nextCursor }, 'cursor');
      assert.match(other.error.message, /belongs to the order amount_desc/);
      await refused({ cursor: first.nextCursor }, 'cursor');
      const forged = (value: unknown) =>
        Buffer.from(JSON.stringify(['amount_desc', value, ids.coffee])).toString('base64url');
      await refused({ sort: 'amount_desc', cursor: forged('1 or 1=1') }, 'cursor');
      await refused({ sort: 'amount_desc', cursor: forged(12) }, 'cursor');
      await refused(
        {
          sort: 'date_asc',
          cursor: Buffer.from(JSON.stringify(['date_asc', '2026-02-30', ids.coffee])).toString('base64url'),
        },
        'cursor',
      );
      await refused(
        {
          sort: 'received_asc',
          cursor: Buffer.from(JSON.stringify(['received_asc', null, ids.coffee])).toString('base64url'),
        },
        'cursor',
      );
    });
  });
}
