import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';
import { makeContractor } from './helpers.ts';

/**
 * contractors.list and contractorOps.directory.list `query`: a case-insensitive substring of the
 * display or legal name, served by a trigram index from three characters on (FTS5 on SQLite,
 * pg_trgm on PostgreSQL) and by the LIKE walk below that (docs/decisions.md 265). The answers must
 * be the same either way.
 */
for (const dialect of DIALECTS) {
  describe(`contractors.list query (${dialect})`, () => {
    let app: TestApp;
    let caller: Caller;
    let other: Caller;
    const ids: Record<string, string> = {};

    const search = async (query: string, as = caller, operation = 'contractors.list') => {
      const res = await call(
        app.baseUrl,
        operation,
        { query, limit: 100 },
        { token: as.token, method: 'GET' },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.data.items as Array<{ id: string }>).map((item) => item.id);
    };
    const named = (...names: string[]) => names.map((name) => ids[name]);

    before(async () => {
      app = await startTestApp(dialect);
      caller = await createCaller(app);
      other = await createCaller(app);
      // Created oldest first; lists are newest first.
      for (const [key, displayName, legalName] of [
        ['ada', 'Ada Lovelace', 'Augusta Ada King'],
        ['grace', 'Grace Hopper', 'Grace Brewster Murray'],
        ['percent', '100% Pure', 'Under_score Ltd'],
        ['quote', 'The "Q" Shop', 'Q Shop AB'],
        ['accent', 'Zoë Émile', 'Zoe Emile'],
      ] as const) {
        ids[key] = (await makeContractor(app, caller, { displayName, legalName })).id;
      }
      ids.foreign = (
        await makeContractor(app, other, { displayName: 'Ada Foreign', legalName: 'Ada Foreign' })
      ).id;
    });
    after(() => app.close());

    it('matches a substring of either name, ignoring case', async () => {
      assert.deepEqual(await search('LOVELACE'), named('ada'));
      assert.deepEqual(await search('ada'), named('ada'), 'display name, and legal name "Augusta Ada King"');
      assert.deepEqual(await search('brewster mu'), named('grace'), 'legal name only, across a space');
      assert.deepEqual(await search('ace'), named('grace', 'ada'), 'newest first');
      assert.deepEqual(await search('nobody here'), []);
      assert.deepEqual(
        await search('ada', caller, 'contractorOps.directory.list'),
        named('ada'),
        'the directory filters the same way',
      );
    });

    it('takes %, _ and " literally', async () => {
      assert.deepEqual(await search('0% p'), named('percent'));
      assert.deepEqual(await search('r_s'), named('percent'));
      assert.deepEqual(await search('%%%'), []);
      assert.deepEqual(await search('___'), []);
      assert.deepEqual(await search('"q"'), named('quote'));
      assert.deepEqual(await search('"'), named('quote'));
    });

    it('answers one- and two-character queries as substrings too', async () => {
      assert.deepEqual(await search('ë'), named('accent'));
      assert.deepEqual(await search('Q'), named('quote'));
      assert.deepEqual(await search('%'), named('percent'));
      assert.deepEqual(await search('Ho'), named('quote', 'grace'), 'Shop and Hopper');
      assert.deepEqual(await search('zq'), []);
    });

    it("never shows another organization's contractors", async () => {
      assert.deepEqual(await search('foreign'), []);
      assert.deepEqual(await search('ada', other), [ids.foreign]);
      assert.deepEqual(await search('Ad', other), [ids.foreign]);
    });

    it('follows renames and deletions', async () => {
      const made = await makeContractor(app, caller, {
        displayName: 'Temporary Name',
        legalName: 'Temp Legal',
      });
      assert.deepEqual(await search('temporary'), [made.id]);
      const renamed = await call(
        app.baseUrl,
        'contractors.update',
        { id: made.id, expectedRevision: made.revision, displayName: 'Renamed Person' },
        { token: caller.token },
      );
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.deepEqual(await search('temporary'), []);
      assert.deepEqual(await search('renamed pers'), [made.id]);
      assert.deepEqual(await search('temp legal'), [made.id], 'the legal name is unchanged');
      // No operation deletes a contractor; the index must still follow a row that goes.
      await app.services.db.kysely.deleteFrom('contractors').where('id', '=', made.id).execute();
      assert.deepEqual(await search('renamed'), []);
      assert.deepEqual(await search('ada'), named('ada'), 'the other rows are untouched');
    });
  });
}
