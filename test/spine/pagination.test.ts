import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { AppError } from '../../src/contract/errors.ts';
import { MAX_SAFE } from '../../src/contract/formats.ts';
import { MINUTE } from '../../src/lib/clock.ts';
import { OPERATIONS } from '../../src/operations/catalog.ts';
import { cursorPage, decodeCursor, encodeCursor, offsetPage } from '../../src/operations/pagination.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import { contractorInput, exampleOf, inputProperties } from '../support/factories.ts';
import { call } from '../support/http.ts';

/**
 * Both list styles. Offset: newest first with a tie-breaker, so paging through a stable set
 * neither skips nor repeats. Cursor: records that arrive between pages never shift the pages.
 */

const OFFSET_LISTS = OPERATIONS.filter(
  (op) => 'limit' in inputProperties(op) && 'offset' in inputProperties(op),
);

const ISSUED_ID = '0190a5f2-3c4d-7abc-8def-0123456789ab';
const ISSUED_AT = '2026-01-01T00:00:00.000Z';

/** Decoded cursors that this service never issues: each must be 400 on `cursor`, never a 500. */
const FORGED_POSITIONS: ReadonlyArray<[string, unknown]> = [
  ['id not a UUID', [ISSUED_AT, 'notauuid']],
  ['id with SQL', [ISSUED_AT, "' or 1=1 --"]],
  ['id upper case', [ISSUED_AT, ISSUED_ID.toUpperCase()]],
  ['id a number', [ISSUED_AT, 42]],
  ['timestamp without milliseconds', ['2026-01-01T00:00:00Z', ISSUED_ID]],
  ['timestamp with an offset', ['2026-01-01T00:00:00.000+01:00', ISSUED_ID]],
  ['timestamp before 1970', ['1969-12-31T23:59:59.999Z', ISSUED_ID]],
  ['timestamp out of PostgreSQL range', ['-271821-04-20T00:00:00.000Z', ISSUED_ID]],
  ['timestamp after 9999', ['+010000-01-01T00:00:00.000Z', ISSUED_ID]],
  ['timestamp that does not exist', ['2026-02-30T00:00:00.000Z', ISSUED_ID]],
  ['timestamp a date only', ['2026-01-01', ISSUED_ID]],
  ['extra element', [ISSUED_AT, ISSUED_ID, 'x']],
  ['object', { createdAt: ISSUED_AT, id: ISSUED_ID }],
];

describe('cursor helpers', () => {
  it('round-trip any position', () => {
    // Stored timestamps are years 1970 to the service's last date (decision 321).
    const dates = fc.date({
      min: new Date('1970-01-01T00:00:00.000Z'),
      max: new Date('2999-12-31T23:59:59.999Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(dates, fc.uuid(), (date, id) => {
        const position = { createdAt: date.toISOString(), id };
        const cursor = encodeCursor(position);
        assert.match(cursor, /^[A-Za-z0-9_-]+$/);
        assert.deepEqual(decodeCursor(cursor), position);
      }),
    );
  });

  it('refuse anything they did not issue with 400 invalid_input on `cursor`', () => {
    const refused = (cursor: string) => {
      try {
        decodeCursor(cursor);
        return false;
      } catch (error) {
        return error instanceof AppError && error.code === 'invalid_input' && error.field === 'cursor';
      }
    };
    for (const cursor of ['', 'x', 'W10', Buffer.from('["not a date","a"]').toString('base64url')]) {
      assert.ok(refused(cursor), cursor);
    }
    for (const [label, position] of FORGED_POSITIONS) {
      assert.ok(refused(Buffer.from(JSON.stringify(position)).toString('base64url')), label);
    }
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          decodeCursor(text);
        } catch (error) {
          assert.ok(error instanceof AppError && error.field === 'cursor');
        }
      }),
    );
  });

  it('cursorPage: a next cursor exactly when the extra row exists, pointing at the last item', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 1, max: 10 }), (n, limit) => {
        const rows = Array.from({ length: n }, (_, i) => ({
          id: `00000000-0000-7000-8000-${String(100 - i).padStart(12, '0')}`,
          created_at: new Date(Date.UTC(2026, 0, 1) - i * MINUTE).toISOString(),
        }));
        const page = cursorPage(rows, limit, (row) => row.id);
        assert.deepEqual(
          page.items,
          rows.slice(0, limit).map((row) => row.id),
        );
        const last = rows[limit - 1];
        if (n > limit && last) {
          assert.deepEqual(decodeCursor(page.nextCursor ?? ''), { createdAt: last.created_at, id: last.id });
        } else assert.equal(page.nextCursor, null);
        const offset = offsetPage(rows, limit, 5);
        assert.equal(offset.nextOffset, n > limit ? 5 + limit : null);
      }),
    );
  });
});

for (const dialect of DIALECTS) {
  describe(`pagination (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    /** Contractor ids in the order the contract prescribes: created_at desc, then id desc. */
    let expected: string[];
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      // Another organization's records must never show up.
      const other = await createCaller(app);
      await call(app.baseUrl, 'contractors.create', contractorInput(), { token: other.token });
      // Creation times jump around and repeat, so the order relies on the tie-breaker.
      const base = app.clock.now().getTime();
      const offsets = [3, 1, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2];
      for (const minutes of offsets) {
        app.clock.set(new Date(base + minutes * MINUTE));
        const res = await call(app.baseUrl, 'contractors.create', contractorInput(), { token: admin.token });
        assert.equal(res.status, 200);
      }
      const rows = await app.services.db.kysely
        .selectFrom('contractors')
        .select(['id', 'created_at'])
        .where('organization_id', '=', admin.organizationId)
        .execute();
      expected = rows
        .map((row) => ({ id: row.id, at: new Date(row.created_at).toISOString() }))
        .sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1))
        .map((row) => row.id);
      assert.equal(expected.length, offsets.length);
    });
    after(() => app?.close());

    it('offset property: paging from any offset with any limit returns the set once, newest first', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 100 }).map((n) => (n > 30 ? n : Math.ceil(n / 4))),
          fc.integer({ min: 0, max: 25 }),
          fc.boolean(),
          async (limit, start, useGet) => {
            const seen: string[] = [];
            let offset = start;
            for (;;) {
              const res = await call(
                app.baseUrl,
                'contractors.list',
                { limit, offset },
                {
                  token: admin.token,
                  method: useGet ? 'GET' : 'POST',
                },
              );
              assert.equal(res.status, 200);
              const items = res.data.items as Array<{ id: string }>;
              seen.push(...items.map((item) => item.id));
              // A full page, and nextOffset exactly when records remain (null on the last page).
              assert.equal(items.length, Math.min(limit, Math.max(0, expected.length - offset)));
              const next = offset + items.length;
              assert.equal(res.data.nextOffset, next < expected.length ? next : null);
              if (res.data.nextOffset === null) break;
              offset += items.length;
            }
            assert.deepEqual(seen, expected.slice(start));
          },
        ),
        { numRuns: 25 },
      );
    });

    it('equal created_at is ordered by id, newest first', async () => {
      const res = await call(app.baseUrl, 'contractors.list', { limit: 100 }, { token: admin.token });
      const items = res.data.items as Array<{ id: string; created_at: string }>;
      let ties = 0;
      for (let i = 1; i < items.length; i += 1) {
        const [a, b] = [items[i - 1], items[i]];
        assert.ok(a && b);
        assert.ok(a.created_at >= b.created_at);
        if (a.created_at === b.created_at) {
          ties += 1;
          assert.ok(a.id > b.id);
        }
      }
      assert.ok(ties >= 5, 'the data set has ties');
    });

    for (const operation of OFFSET_LISTS) {
      const required = (operation.input as { required?: string[] }).required ?? [];
      it(`${operation.name}: limit 1-100 (default 30) and offset 0-${MAX_SAFE}`, async () => {
        const input = exampleOf(operation);
        delete input.limit;
        delete input.offset;
        const send = (extra: Record<string, unknown>) =>
          call(app.baseUrl, operation.name, { ...input, ...extra }, { token: admin.token });
        for (const [field, value] of [
          ['limit', 0],
          ['limit', 101],
          ['limit', 1.5],
          ['limit', '10'],
          ['offset', -1],
          ['offset', MAX_SAFE + 1],
          ['offset', 0.5],
        ] as const) {
          const res = await send({ [field]: value });
          assertError(res, 400, 'invalid_input', `${operation.name} ${field}=${value}`);
          assert.equal(res.error.field, field);
        }
        if (required.length > 0) return; // the example's placeholder ids need not exist
        const defaults = await send({});
        assert.equal(defaults.status, 200, JSON.stringify(defaults.body));
        assert.deepEqual([defaults.data.limit, defaults.data.offset], [30, 0]);
        for (const limit of [1, 100]) assert.equal((await send({ limit })).data.limit, limit);
        const far = await send({ offset: MAX_SAFE, limit: 100 });
        assert.equal(far.status, 200, JSON.stringify(far.body));
        assert.deepEqual([far.data.items, far.data.nextOffset], [[], null]);
      });
    }

    it('cursor pages (webhooks.events.list) never skip or repeat while records arrive', async () => {
      const caller = await createCaller(app);
      app.clock.set('2026-03-01T00:00:00.000Z');
      for (let i = 0; i < 9; i += 1) {
        if (i % 3 === 0) app.clock.advance(MINUTE); // three events per instant: ties
        await call(app.baseUrl, 'contractors.create', contractorInput(), { token: caller.token });
      }
      const everything = await call(
        app.baseUrl,
        'webhooks.events.list',
        { limit: 100 },
        { token: caller.token },
      );
      const before = (everything.data.items as Array<{ id: string }>).map((item) => item.id);
      assert.ok(before.length >= 9);
      const seen: string[] = [];
      let cursor: string | null | undefined;
      do {
        const res = await call(
          app.baseUrl,
          'webhooks.events.list',
          { limit: 2, ...(cursor ? { cursor } : {}) },
          {
            token: caller.token,
            method: 'GET',
          },
        );
        assert.equal(res.status, 200, JSON.stringify(res.body));
        seen.push(...(res.data.items as Array<{ id: string }>).map((item) => item.id));
        cursor = res.data.nextCursor as string | null;
        // Newer records arrive between pages, some at the very instant of existing ones.
        await call(app.baseUrl, 'contractors.create', contractorInput(), { token: caller.token });
      } while (cursor);
      assert.deepEqual(seen, before);
      const bad = await call(
        app.baseUrl,
        'webhooks.events.list',
        { cursor: 'bm90LWEtY3Vyc29y' },
        {
          token: caller.token,
        },
      );
      assertError(bad, 400, 'invalid_input', 'forged cursor');
      assert.equal(bad.error.field, 'cursor');
    });

    it('forged cursors are 400 on `cursor` for both cursor lists (never a database cast error)', async () => {
      const caller = await createCaller(app);
      const valid = Buffer.from(JSON.stringify([ISSUED_AT, ISSUED_ID])).toString('base64url');
      for (const operation of ['webhooks.events.list', 'webhooks.deliveries.list']) {
        for (const method of ['POST', 'GET'] as const) {
          const ok = await call(app.baseUrl, operation, { cursor: valid }, { token: caller.token, method });
          assert.equal(ok.status, 200, `${operation} ${method} issued form: ${JSON.stringify(ok.body)}`);
          for (const [label, position] of FORGED_POSITIONS) {
            const cursor = Buffer.from(JSON.stringify(position)).toString('base64url');
            const res = await call(app.baseUrl, operation, { cursor }, { token: caller.token, method });
            assertError(res, 400, 'invalid_input', `${operation} ${method} ${label}`);
            assert.equal(res.error.field, 'cursor', label);
          }
        }
      }
    });
  });
}
