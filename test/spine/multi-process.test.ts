import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, createApiKey, createOrganization } from '../../src/admin/organizations.ts';
import { ACCOUNTING_SCOPES } from '../../src/contract/access.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { auditRows } from '../support/audit.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.ts';
import { contractorInput } from '../support/factories.ts';
import { type ApiResponse, call, freshKey } from '../support/http.ts';
import { type ServeProcess, startServe } from '../support/processes.ts';

/**
 * Two real `accounting serve` processes on one database (a PostgreSQL database, or one SQLite
 * file in WAL mode with BEGIN IMMEDIATE writes): idempotency and revisions must hold across
 * processes, because the claim and the compare-and-set live in the database.
 */

for (const dialect of DIALECTS) {
  describe(`several serve processes on one database (${dialect})`, () => {
    let database: TestDatabase;
    let servers: ServeProcess[] = [];
    let token: string;
    let organizationId: string;

    before(async () => {
      database = await createTestDatabase(dialect);
      const { kysely } = database.db;
      organizationId = (await createOrganization(kysely, systemClock, { name: 'Multi-process' })).id;
      const member = await addMember(kysely, systemClock, {
        organizationId,
        email: 'admin@example.com',
        role: 'admin',
      });
      token = (
        await createApiKey(kysely, systemClock, {
          organizationId,
          memberId: member.id,
          scopes: ACCOUNTING_SCOPES,
        })
      ).token;
      servers = await Promise.all([startServe(database.env), startServe(database.env)]);
    });
    after(async () => {
      await Promise.all(servers.map((server) => server.stop()));
      await database?.drop();
    });

    /** `count` requests spread over both processes, all in flight at once. */
    function hammer(count: number, send: (baseUrl: string, i: number) => Promise<ApiResponse>) {
      return Promise.all(
        Array.from({ length: count }, (_, i) => send(servers[i % servers.length]?.baseUrl ?? '', i)),
      );
    }

    it('runs two processes on different ports', () => {
      assert.equal(servers.length, 2);
      assert.notEqual(servers[0]?.baseUrl, servers[1]?.baseUrl);
    });

    it('one idempotency key hammered on both processes takes effect once', async () => {
      for (let round = 0; round < 5; round += 1) {
        const key = freshKey();
        const input = contractorInput();
        const responses = await hammer(16, (baseUrl) =>
          call(baseUrl, 'contractors.create', input, { token, idempotencyKey: key }),
        );
        const ok = responses.filter((res) => res.status === 200);
        assert.ok(ok.length >= 1, responses.map((res) => res.status).join(','));
        for (const res of ok) assert.deepEqual(res.body, ok[0]?.body);
        for (const res of responses.filter((r) => r.status !== 200)) {
          assert.deepEqual([res.status, res.error.code], [409, 'idempotency_in_progress']);
        }
        const rows = await database.db.kysely
          .selectFrom('contractors')
          .select('id')
          .where('organization_id', '=', organizationId)
          .where('email_normalized', '=', String(input.email).toLowerCase())
          .execute();
        assert.equal(rows.length, 1, `round ${round}`);
      }
    });

    it('one expectedRevision hammered on both processes admits exactly one change', async () => {
      for (let round = 0; round < 5; round += 1) {
        const created = await call(servers[0]?.baseUrl ?? '', 'contractors.create', contractorInput(), {
          token,
        });
        const id = String(created.data.id);
        const responses = await hammer(16, (baseUrl, i) =>
          call(
            baseUrl,
            'contractors.update',
            { id, expectedRevision: 1, displayName: `Writer ${i}` },
            { token },
          ),
        );
        const ok = responses.filter((res) => res.status === 200);
        assert.equal(ok.length, 1, responses.map((res) => `${res.status}:${res.error?.code}`).join(','));
        for (const res of responses.filter((r) => r.status !== 200)) {
          assert.deepEqual(
            [res.status, res.error.code, res.error.current_revision],
            [409, 'revision_conflict', 2],
          );
        }
        const audit = await auditRows(
          database.db.kysely,
          { recordId: id, operation: 'contractors.update' },
          { columns: ['before_revision', 'after_revision'] },
        );
        assert.deepEqual(audit, [{ before_revision: 1, after_revision: 2 }]);
      }
    });
  });
}
