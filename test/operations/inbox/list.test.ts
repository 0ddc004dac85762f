import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';
import { upload } from '../receipts/helpers.ts';

// inbox.list, inbox.get, inbox.ignore, inbox.restore.

let serial = 0;
/** A small distinct XML receipt each call (distinct bytes: no dedupe). */
function uniqueXml(): Buffer {
  serial += 1;
  return Buffer.from(
    `<?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>T-${process.pid}-${serial}</ID></Invoice>`,
  );
}

async function walk(app: TestApp, caller: Caller, limit: number, between?: () => Promise<void>) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    const input: Record<string, unknown> = { limit };
    if (cursor) input.cursor = cursor;
    const res = await call(app.baseUrl, 'inbox.list', input, { token: caller.token, method: 'GET' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const page = res.data as { items: { id: string }[]; nextCursor: string | null };
    assert.ok(page.items.length <= limit);
    seen.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor;
    if (cursor === null) return seen;
    await between?.();
  }
}

for (const dialect of DIALECTS) {
  describe(`inbox (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    it('pages with limit/cursor and never skips or repeats when items arrive between pages (property)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 7 }),
          fc.integer({ min: 1, max: 4 }),
          fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 5 }),
          async (initial, limit, arrivals) => {
            const caller = await createCaller(app);
            const existing: string[] = [];
            for (let i = 0; i < initial; i++) {
              const res = await upload(app, caller, uniqueXml(), 'r.xml', 'application/xml');
              existing.push((res.data as { item: { id: string } }).item.id);
            }
            let step = 0;
            const seen = await walk(app, caller, limit, async () => {
              const n = arrivals[step++] ?? 0;
              for (let i = 0; i < n; i++)
                await upload(app, caller, uniqueXml(), 'new.xml', 'application/xml');
            });
            assert.equal(new Set(seen).size, seen.length, 'no repeats');
            assert.deepEqual(
              seen.filter((id) => existing.includes(id)).sort(),
              [...existing].sort(),
              'no skips',
            );
            // Newest first: the items present at the start come in reverse creation order.
            assert.deepEqual(
              seen.filter((id) => existing.includes(id)),
              [...existing].reverse(),
            );
          },
        ),
        { numRuns: 8 },
      );
    });

    it('ends with nextCursor null and refuses a forged cursor', async () => {
      const caller = await createCaller(app);
      const empty = await call(app.baseUrl, 'inbox.list', {}, { token: caller.token });
      assert.deepEqual(empty.data, { items: [], nextCursor: null });
      assertError(
        await call(app.baseUrl, 'inbox.list', { cursor: 'bm90LWEtY3Vyc29y' }, { token: caller.token }),
        400,
        'invalid_input',
      );
    });

    it('ignores and restores an item, revision-checked; another organization sees nothing', async () => {
      const caller = await createCaller(app);
      const made = await upload(app, caller, uniqueXml(), 'r.xml', 'application/xml');
      const item = (made.data as { item: { id: string; revision: number; state: string } }).item;
      assert.equal(item.state, 'new');
      const ignored = await call(
        app.baseUrl,
        'inbox.ignore',
        { id: item.id, expectedRevision: item.revision },
        { token: caller.token },
      );
      assert.equal(ignored.status, 200);
      assert.equal((ignored.data as { state: string }).state, 'ignored');
      assertError(
        await call(
          app.baseUrl,
          'inbox.ignore',
          { id: item.id, expectedRevision: item.revision },
          { token: caller.token },
        ),
        409,
        'revision_conflict',
      );
      const onlyIgnored = await call(
        app.baseUrl,
        'inbox.list',
        { state: 'ignored' },
        { token: caller.token },
      );
      assert.deepEqual(
        (onlyIgnored.data as { items: { id: string }[] }).items.map((i) => i.id),
        [item.id],
      );
      const restored = await call(
        app.baseUrl,
        'inbox.restore',
        { id: item.id, expectedRevision: (ignored.data as { revision: number }).revision },
        { token: caller.token },
      );
      assert.equal((restored.data as { state: string }).state, 'new');
      assertError(
        await call(
          app.baseUrl,
          'inbox.restore',
          { id: item.id, expectedRevision: (restored.data as { revision: number }).revision },
          { token: caller.token },
        ),
        409,
        'invalid_state',
      );
      const other = await createCaller(app);
      assertError(
        await call(app.baseUrl, 'inbox.get', { id: item.id }, { token: other.token }),
        404,
        'not_found',
      );
      const theirs = await call(app.baseUrl, 'inbox.list', {}, { token: other.token });
      assert.deepEqual((theirs.data as { items: unknown[] }).items, []);
    });

    it('gives one receiving address per organization; rotate replaces it', async () => {
      const caller = await createCaller(app);
      const first = await call(app.baseUrl, 'inbox.address.get', {}, { token: caller.token });
      const again = await call(app.baseUrl, 'inbox.address.get', {}, { token: caller.token, method: 'GET' });
      const a = first.data as { address: string; revision: number; refused_messages: number };
      assert.match(a.address, /^receipts-[a-z2-7]{20}@inbound\.localhost$/);
      assert.equal((again.data as { address: string }).address, a.address);
      assert.equal(a.revision, 1);
      assert.equal(a.refused_messages, 0);
      const other = await createCaller(app);
      const theirs = await call(app.baseUrl, 'inbox.address.get', {}, { token: other.token });
      assert.notEqual((theirs.data as { address: string }).address, a.address);
      const rotated = await call(
        app.baseUrl,
        'inbox.address.rotate',
        { expectedRevision: 1 },
        { token: caller.token },
      );
      assert.equal(rotated.status, 200);
      const r = rotated.data as { address: string; revision: number };
      assert.notEqual(r.address, a.address);
      assert.equal(r.revision, 2);
      assertError(
        await call(app.baseUrl, 'inbox.address.rotate', { expectedRevision: 1 }, { token: caller.token }),
        409,
        'revision_conflict',
      );
      const now = await call(app.baseUrl, 'inbox.address.get', {}, { token: caller.token });
      assert.equal((now.data as { address: string }).address, r.address);
    });
  });
}
