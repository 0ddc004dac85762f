import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { isId } from '../../src/contract/formats.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import { contractorInput } from '../support/factories.ts';
import { call, openApiCheckedFetch } from '../support/http.ts';

/**
 * The contract's identifier table: UUID versions 1-8, variants 8/9/a/b, plus the all-zero and
 * all-f UUIDs. Checked on the pure predicate and over HTTP (an accepted id that names nothing is
 * 404; a refused one is 400 naming the field), in a body and in a query string.
 */

const uuid = (version: string, variant: string) => `0190a5f2-3c4d-${version}abc-${variant}def-0123456789ab`;

const ACCEPTED = [
  ...['1', '2', '3', '4', '5', '6', '7', '8'].flatMap((v) => ['8', '9', 'a', 'b'].map((n) => uuid(v, n))),
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  uuid('4', 'A').toUpperCase(),
];

const REFUSED = [
  uuid('0', '8'),
  uuid('9', '8'),
  uuid('f', '8'),
  ...['0', '7', 'c', 'd', 'e', 'f'].map((n) => uuid('4', n)),
  '00000000-0000-0000-0000-000000000001',
  'ffffffff-ffff-ffff-ffff-fffffffffffe',
  '0190a5f23c4d4abc8def0123456789ab',
  `{${uuid('4', '8')}}`,
  `${uuid('4', '8')} `,
  ` ${uuid('4', '8')}`,
  `${uuid('4', '8')}0`,
  uuid('4', '8').slice(0, -1),
  'urn:uuid:0190a5f2-3c4d-4abc-8def-0123456789ab',
  '0190a5f2-3c4d-4abc-8def-0123456789ag',
  '',
];

describe('UUID format (predicate)', () => {
  it('accepts the contract table and nothing else', () => {
    for (const id of ACCEPTED) assert.equal(isId(id), true, id);
    for (const id of REFUSED) assert.equal(isId(id), false, id);
  });

  it('property: a random UUID is accepted exactly when version is 1-8 and variant 8/9/a/b', () => {
    fc.assert(
      fc.property(fc.uuid({ version: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] }), (id) => {
        const version = id[14] ?? '';
        const variant = (id[19] ?? '').toLowerCase();
        const expected = /[1-8]/.test(version) && /[89ab]/.test(variant);
        assert.equal(isId(id), expected, id);
        assert.equal(isId(id.toUpperCase()), expected, id);
      }),
    );
  });
});

for (const dialect of DIALECTS) {
  describe(`formats over HTTP (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app?.close());

    it('ids: accepted forms reach the lookup (404), refused forms are 400 on the field', async () => {
      for (const method of ['POST', 'GET'] as const) {
        for (const id of ACCEPTED) {
          const res = await call(app.baseUrl, 'contractors.get', { id }, { token: admin.token, method });
          assertError(res, 404, 'not_found', `${method} ${id}`);
        }
        for (const id of REFUSED) {
          const res = await call(app.baseUrl, 'contractors.get', { id }, { token: admin.token, method });
          assertError(res, 400, 'invalid_input', `${method} "${id}"`);
          assert.equal(res.error.field, 'id');
        }
      }
      const wrongType = await call(app.baseUrl, 'contractors.get', { id: 7 }, { token: admin.token });
      assertError(wrongType, 400, 'invalid_input', 'number id');
    });

    it('ids are matched case-insensitively on both databases', async () => {
      const created = await call(app.baseUrl, 'contractors.create', contractorInput(), {
        token: admin.token,
      });
      const id = String(created.data.id);
      const upper = await call(
        app.baseUrl,
        'contractors.get',
        { id: id.toUpperCase() },
        { token: admin.token },
      );
      assert.equal(upper.status, 200);
      assert.equal(upper.data.id, id);
    });

    it('query strings convert numbers strictly: 1e1, 01, +1, 1.0 and empty stay text and fail', async () => {
      for (const limit of ['1e1', '01', '+1', '1.0', '', ' 5', '0x10']) {
        const res = await call(
          app.baseUrl,
          'contractors.list',
          { limit },
          { token: admin.token, method: 'GET' },
        );
        assertError(res, 400, 'invalid_input', `limit=${limit}`);
        assert.equal(res.error.field, 'limit');
      }
      const repeated = await openApiCheckedFetch(
        `${app.baseUrl}/api/v1/accounting/contractors.list?limit=1&limit=2`,
        {
          headers: { authorization: `Bearer ${admin.token}` },
        },
      );
      assert.equal(repeated.status, 400);
      const ok = await call(
        app.baseUrl,
        'contractors.list',
        { limit: '7' },
        { token: admin.token, method: 'GET' },
      );
      assert.equal(ok.data.limit, 7);
    });

    it('strings: country is two uppercase letters, names and email within their lengths', async () => {
      const bad: Array<[string, unknown]> = [
        ['country', 'ca'],
        ['country', 'CAN'],
        ['country', 'C1'],
        ['displayName', ''],
        ['displayName', 'x'.repeat(201)],
        ['legalName', 'x'.repeat(301)],
        ['email', 'not-an-email'],
        ['email', `${'x'.repeat(310)}@example.com`],
      ];
      for (const [field, value] of bad) {
        const res = await call(app.baseUrl, 'contractors.create', contractorInput({ [field]: value }), {
          token: admin.token,
        });
        assertError(res, 400, 'invalid_input', `${field}=${String(value).slice(0, 20)}`);
        assert.equal(res.error.field, field);
      }
      const edge = contractorInput({
        displayName: 'x'.repeat(200),
        legalName: 'y'.repeat(300),
        country: 'CA',
      });
      assert.equal((await call(app.baseUrl, 'contractors.create', edge, { token: admin.token })).status, 200);
    });
  });
}
