import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';
import { mailCaller, op, upload } from './helpers.ts';

/** mail.items.list: a cursor list like inbox.list (limit/cursor in, items/nextCursor out). */
for (const dialect of DIALECTS) {
  describe(`mail.items.list (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    it('pages newest first, never skipping or repeating a letter while new ones arrive', async () => {
      const caller = await mailCaller(app);
      const made: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        app.clock.advance(1000);
        made.push(String((await upload(app, caller, { subject: `Letter ${i}` })).data.id));
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await op(app, caller, 'mail.items.list', { limit: 2, ...(cursor ? { cursor } : {}) });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        seen.push(...(res.data.items as Array<{ id: string }>).map((item) => item.id));
        cursor = res.data.nextCursor as string | null;
        pages += 1;
        // A letter arriving between pages sorts before the cursor: never on a later page.
        if (pages === 1) await upload(app, caller, { subject: 'Late arrival' });
      } while (cursor !== null);
      assert.deepEqual(seen, [...made].reverse());
      assert.equal(pages, 3);
      // GET with the same parameters.
      const get = await call(
        app.baseUrl,
        'mail.items.list',
        { limit: 1 },
        { token: caller.token, method: 'GET' },
      );
      assert.equal(get.status, 200);
      assert.equal((get.data.items as unknown[]).length, 1);
    });

    it('filters archived, unread and channel; refuses a forged cursor; sees only its organization', async () => {
      const caller = await mailCaller(app);
      const stranger = await mailCaller(app);
      await upload(app, stranger);
      const first = await upload(app, caller);
      const second = await upload(app, caller);
      const read = await op(app, caller, 'mail.items.markRead', { id: second.data.id, expectedRevision: 1 });
      assert.equal(read.status, 200, JSON.stringify(read.body));
      const archived = await op(app, caller, 'mail.items.archive', {
        id: first.data.id,
        expectedRevision: 1,
      });
      assert.equal(archived.status, 200, JSON.stringify(archived.body));
      const ids = async (input: Record<string, unknown>) =>
        ((await op(app, caller, 'mail.items.list', input)).data.items as Array<{ id: string }>).map(
          (i) => i.id,
        );
      assert.deepEqual(await ids({}), [second.data.id]);
      assert.deepEqual(await ids({ archived: true }), [first.data.id]);
      assert.deepEqual(await ids({ unread: true }), []);
      assert.deepEqual(await ids({ unread: false }), [second.data.id]);
      assert.deepEqual(await ids({ channel: 'email' }), []);
      const forged = await op(app, caller, 'mail.items.list', {
        cursor: Buffer.from('["x","y"]').toString('base64url'),
      });
      assertError(forged, 400, 'invalid_input');
      assert.equal(forged.error.field, 'cursor');
      assertError(await op(app, caller, 'mail.items.list', { channel: 'fax' }), 400, 'invalid_input');
    });
  });
}
