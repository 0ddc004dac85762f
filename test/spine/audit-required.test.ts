import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from 'typebox';
import { defineOperation } from '../../src/operations/define.ts';
import { invoke } from '../../src/operations/execute.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';

// Audit that cannot be forgotten (decision 394): a mutation that succeeds without an audit row
// fails the test suite; one declared `auditOnlyOnChange` may change nothing and write none.

const probe = (name: string, options: { audit: boolean; auditOnlyOnChange?: true }) =>
  defineOperation({
    name,
    summary: 'test only',
    access: { scopes: ['accounting:read'], roles: ['admin'] },
    mutation: {
      idempotencyKeyMax: 200,
      revision: 'none',
      ...(options.auditOnlyOnChange ? { auditOnlyOnChange: true as const } : {}),
    },
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ ok: Type.Boolean() }),
    async run({ ctx }) {
      if (options.audit) {
        await ctx.audit({
          recordType: 'probe',
          recordId: '01920000-0000-7000-8000-0000000000aa',
          beforeRevision: null,
          afterRevision: 1,
        });
      }
      return { ok: true };
    },
  });

for (const dialect of DIALECTS) {
  describe(`every mutation is audited (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app.close());

    const run = (caller: Caller, operation: ReturnType<typeof probe>) =>
      invoke(app.services, {
        operation,
        principal: {
          organizationId: caller.organizationId,
          memberId: caller.memberId,
          role: 'admin',
          scopes: new Set(['accounting:read']),
          credentialId: `test-${caller.memberId}`,
          credentialType: 'api_key',
        },
        input: {},
        idempotencyHeader: `audit-${Math.random().toString(36).slice(2)}`,
        requestId: 'req_test',
        inputSource: 'body',
      });

    const auditCount = async (organizationId: string) =>
      (
        await app.services.db.kysely
          .selectFrom('audit_log')
          .select('id')
          .where('organization_id', '=', organizationId)
          .execute()
      ).length;

    it('a mutation that writes its audit row succeeds', async () => {
      const caller = await createCaller(app);
      const result = await run(caller, probe('test.audited', { audit: true }));
      assert.deepEqual(result.data, { ok: true });
      assert.equal(await auditCount(caller.organizationId), 1);
    });

    it('a mutation that forgets its audit row fails, naming itself, and commits nothing', async () => {
      const caller = await createCaller(app);
      await assert.rejects(
        run(caller, probe('test.forgetful', { audit: false })),
        /test\.forgetful succeeded but wrote no audit row/,
      );
      const keys = await app.services.db.kysely
        .selectFrom('idempotency_keys')
        .select('key')
        .where('organization_id', '=', caller.organizationId)
        .where('state', '=', 'completed')
        .execute();
      assert.deepEqual(keys, [], 'no completed idempotency record');
    });

    it('a mutation declared auditOnlyOnChange may change nothing and write no row', async () => {
      const caller = await createCaller(app);
      const result = await run(caller, probe('test.noChange', { audit: false, auditOnlyOnChange: true }));
      assert.deepEqual(result.data, { ok: true });
      assert.equal(await auditCount(caller.organizationId), 0);
    });
  });
}
