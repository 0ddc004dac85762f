import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { Type } from 'typebox';
import { ALL_SCOPES } from '../../src/contract/access.ts';
import { AppError } from '../../src/contract/errors.ts';
import { IdempotencyKey } from '../../src/contract/formats.ts';
import { canonicalJson, sha256Hex } from '../../src/lib/canonical-json.ts';
import { HOUR, MINUTE } from '../../src/lib/clock.ts';
import type { Principal } from '../../src/operations/context.ts';
import { defineOperation } from '../../src/operations/define.ts';
import { invoke } from '../../src/operations/execute.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import { contractorInput } from '../support/factories.ts';
import { call, freshKey } from '../support/http.ts';

/**
 * Idempotency beyond the basics in test/http/pipeline.test.ts: body keys, organization scope,
 * concurrency, failures releasing the key, retention, and a property over random requests.
 * The in-flight and rollback cases call the shared pipeline (`invoke`) with an operation made
 * for the test, so the moment "the first request is still running" is exact, not timed.
 */

function principalOf(caller: Caller): Principal {
  return {
    organizationId: caller.organizationId,
    memberId: caller.memberId,
    role: caller.role,
    scopes: new Set(ALL_SCOPES),
    credentialId: `test:${caller.memberId}`,
    credentialType: 'api_key',
  };
}

/** An operation whose body the test controls: it writes an audit row, then waits or fails. */
function probeOperation(behaviour: { gate?: Promise<void>; fail?: boolean }) {
  return defineOperation({
    name: 'spine.probe',
    summary: 'Test probe',
    access: { scopes: ['accounting:write'], roles: ['admin', 'finance'] },
    mutation: { idempotencyKeyMax: 200, revision: 'none' },
    input: Type.Object(
      { n: Type.Integer({ description: 'Anything.' }), idempotencyKey: Type.Optional(IdempotencyKey(200)) },
      { additionalProperties: false },
    ),
    output: Type.Object({ n: Type.Integer(), id: Type.String() }),
    async run({ ctx, input }) {
      const id = randomUUID();
      await ctx.audit({ recordType: 'probe', recordId: id, beforeRevision: null, afterRevision: 1 });
      if (behaviour.gate) await behaviour.gate;
      if (behaviour.fail) throw new AppError('invalid_state', 'The probe fails on purpose.');
      return { n: input.n, id };
    },
  });
}

function probeCall(caller: Caller, key: string, operation: ReturnType<typeof probeOperation>) {
  return {
    operation,
    principal: principalOf(caller),
    input: { n: 1 } as Record<string, unknown>,
    idempotencyHeader: key,
    requestId: 'req_test',
    inputSource: 'body' as const,
  };
}

async function count(app: TestApp, table: 'contractors' | 'audit_log' | 'idempotency_keys', org: string) {
  const row = await app.services.db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', org)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

for (const dialect of DIALECTS) {
  describe(`idempotency (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app?.close());

    const create = (input: Record<string, unknown>, key: string | null, caller: Caller = admin) =>
      call(app.baseUrl, 'contractors.create', input, { token: caller.token, idempotencyKey: key });

    it('replays a body idempotencyKey, and accepts header and body when they agree', async () => {
      const input = { ...contractorInput(), idempotencyKey: freshKey() };
      const first = await create(input, null);
      assert.equal(first.status, 200);
      const again = await create(input, null);
      assert.deepEqual([again.status, again.body], [200, first.body]);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(first.headers.get('idempotent-replayed'), null);
      const both = await call(app.baseUrl, 'contractors.create', input, {
        token: admin.token,
        headers: { 'idempotency-key': String(input.idempotencyKey) },
      });
      assert.deepEqual([both.status, both.body], [200, first.body]);
    });

    it('enforces the header bounds 8-200 and the body bounds of the operation (8-150 here)', async () => {
      for (const key of ['k'.repeat(7), 'k'.repeat(201)]) {
        const res = await create(contractorInput(), key);
        assertError(res, 400, 'invalid_input', `header of ${key.length}`);
        assert.equal(res.error.field, 'Idempotency-Key');
      }
      for (const key of ['k'.repeat(7), 'k'.repeat(151)]) {
        const res = await create({ ...contractorInput(), idempotencyKey: key }, null);
        assertError(res, 400, 'invalid_input', `body key of ${key.length}`);
        assert.equal(res.error.field, 'idempotencyKey');
      }
      for (const key of [`${randomUUID().slice(0, 8)}`, `${randomUUID()}`.padEnd(200, 'k')]) {
        assert.equal((await create(contractorInput(), key)).status, 200, `header of ${key.length}`);
      }
      const body150 = { ...contractorInput(), idempotencyKey: randomUUID().padEnd(150, 'k') };
      assert.equal((await create(body150, null)).status, 200);
    });

    it('refuses the same key on a different operation', async () => {
      const key = freshKey();
      assert.equal((await create(contractorInput(), key)).status, 200);
      const other = await call(app.baseUrl, 'contractors.list', {}, { token: admin.token });
      assert.equal(other.status, 200);
      const probe = probeOperation({});
      await assert.rejects(
        invoke(app.services, probeCall(admin, key, probe)),
        (error: unknown) => error instanceof AppError && error.code === 'idempotency_key_reused',
      );
    });

    it('scopes keys to the organization: the same key acts once in each', async () => {
      const other = await createCaller(app);
      const key = freshKey();
      const input = contractorInput();
      const a = await create(input, key);
      const b = await create(input, key, other);
      assert.deepEqual([a.status, b.status], [200, 200]);
      assert.notEqual(a.data.id, b.data.id);
      assert.equal(b.headers.get('idempotent-replayed'), null);
    });

    it('returns the stored result even after the record changed', async () => {
      const key = freshKey();
      const input = contractorInput();
      const first = await create(input, key);
      const id = String(first.data.id);
      await app.services.db.kysely
        .updateTable('contractors')
        .set({ display_name: 'Changed since', revision: 2 })
        .where('id', '=', id)
        .execute();
      const again = await create(input, key);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.data.revision, 1);
    });

    it('lets concurrent requests with one key take effect once (others replay or get 409)', async () => {
      const key = freshKey();
      const input = contractorInput();
      const responses = await Promise.all(Array.from({ length: 12 }, () => create(input, key)));
      const ok = responses.filter((res) => res.status === 200);
      assert.ok(ok.length >= 1);
      for (const res of responses) {
        if (res.status !== 200) {
          assertError(res, 409, 'idempotency_in_progress', 'concurrent');
          assert.equal(res.headers.get('retry-after'), '1');
        } else assert.deepEqual(res.body, ok[0]?.body);
      }
      const rows = await app.services.db.kysely
        .selectFrom('contractors')
        .select('id')
        .where('organization_id', '=', admin.organizationId)
        .where('email_normalized', '=', String(input.email).toLowerCase())
        .execute();
      assert.equal(rows.length, 1);
    });

    it('releases the key of a failed request: nothing is stored and the key can be used again', async () => {
      const key = freshKey();
      const failed = await create({ ...contractorInput(), jobRoleId: randomUUID() }, key);
      assertError(failed, 404, 'not_found', 'unknown job role');
      const stored = await app.services.db.kysely
        .selectFrom('idempotency_keys')
        .select('key')
        .where('organization_id', '=', admin.organizationId)
        .where('key', '=', key)
        .execute();
      assert.deepEqual(stored, []);
      assert.equal((await create(contractorInput(), key)).status, 200);
    });

    it('rolls back the effect and releases the key when the operation fails mid-way', async () => {
      const caller = await createCaller(app);
      const run = (fail: boolean) =>
        invoke(app.services, probeCall(caller, 'rollback-key-1', probeOperation({ fail })));
      await assert.rejects(
        run(true),
        (error: unknown) => error instanceof AppError && error.code === 'invalid_state',
      );
      assert.equal(await count(app, 'audit_log', caller.organizationId), 0, 'the audit row rolled back');
      assert.equal(await count(app, 'idempotency_keys', caller.organizationId), 0, 'the key was released');
      const ok = await run(false);
      assert.equal(await count(app, 'audit_log', caller.organizationId), 1);
      const row = await app.services.db.kysely
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('organization_id', '=', caller.organizationId)
        .executeTakeFirstOrThrow();
      assert.equal(row.state, 'completed');
      // Kept as the answer's JSON text (decision 325), so a replay is byte-identical.
      const stored = (
        typeof row.response_body === 'string' ? JSON.parse(row.response_body) : row.response_body
      ) as { replay: string };
      assert.deepEqual(JSON.parse(stored.replay), ok);
    });

    it('answers 409 idempotency_in_progress while the first request runs, then replays its result', {
      skip: dialect === 'sqlite' ? 'one SQLite connection serializes requests within a process' : false,
    }, async () => {
      const caller = await createCaller(app);
      let open: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      const first = invoke(app.services, probeCall(caller, 'in-flight-key-1', probeOperation({ gate })));
      // The claim commits before the operation runs; wait until it is visible.
      while ((await count(app, 'idempotency_keys', caller.organizationId)) === 0) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      await assert.rejects(
        invoke(app.services, probeCall(caller, 'in-flight-key-1', probeOperation({}))),
        (error: unknown) => error instanceof AppError && error.code === 'idempotency_in_progress',
      );
      open();
      const result = await first;
      const meta: { replayed?: boolean } = {};
      const replay = await invoke(
        app.services,
        probeCall(caller, 'in-flight-key-1', probeOperation({})),
        meta,
      );
      assert.deepEqual(replay, result);
      assert.equal(meta.replayed, true);
      assert.equal(await count(app, 'audit_log', caller.organizationId), 1);
    });

    it('refuses a claim that is still locked (409) and takes over one whose process died', async () => {
      const caller = await createCaller(app);
      const now = app.clock.now();
      // What a process that crashed mid-request leaves behind: a running claim with a lock.
      await app.services.db.kysely
        .insertInto('idempotency_keys')
        .values({
          organization_id: caller.organizationId,
          key: 'dead-claim-key',
          operation: 'spine.probe',
          request_hash: sha256Hex(canonicalJson({ n: 1 })),
          state: 'running',
          locked_until: new Date(now.getTime() + app.services.config.idempotencyLockMs).toISOString(),
          response_status: null,
          response_body: null,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + 24 * HOUR).toISOString(),
        })
        .execute();
      const invocation = probeCall(caller, 'dead-claim-key', probeOperation({}));
      await assert.rejects(
        invoke(app.services, invocation),
        (error: unknown) => error instanceof AppError && error.code === 'idempotency_in_progress',
      );
      await assert.rejects(
        invoke(app.services, { ...invocation, input: { n: 2 } }),
        (error: unknown) => error instanceof AppError && error.code === 'idempotency_key_reused',
      );
      app.clock.advance(app.services.config.idempotencyLockMs + 1);
      const taken = (await invoke(app.services, invocation)) as { data: { n: number } };
      assert.equal(taken.data.n, 1);
      assert.equal(await count(app, 'audit_log', caller.organizationId), 1);
    });

    it('keeps keys for the retention time (24 h) and forgets them after', async () => {
      const caller = await createCaller(app);
      const key = freshKey();
      const first = await create(contractorInput(), key, caller);
      assert.equal(first.status, 200);
      app.clock.advance(24 * HOUR - MINUTE);
      const other = contractorInput();
      assertError(await create(other, key, caller), 400, 'idempotency_key_reused', 'within 24 h');
      app.clock.advance(2 * MINUTE);
      const later = await create(other, key, caller);
      assert.equal(later.status, 200);
      assert.notEqual(later.data.id, first.data.id);
    });

    it('property: any number of replays of a random create makes exactly one record', async () => {
      const caller = await createCaller(app);
      const text = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0);
      await fc.assert(
        fc.asyncProperty(
          text,
          text,
          fc.integer({ min: 2, max: 5 }),
          fc.boolean(),
          async (displayName, legalName, replays, parallel) => {
            const input = { ...contractorInput({ displayName, legalName }) };
            const key = freshKey();
            const send = () => create(input, key, caller);
            const responses = parallel
              ? await Promise.all(Array.from({ length: replays }, send))
              : await (async () => {
                  const out = [];
                  for (let i = 0; i < replays; i += 1) out.push(await send());
                  return out;
                })();
            const ok = responses.filter((res) => res.status === 200);
            assert.ok(ok.length >= 1);
            for (const res of ok) assert.deepEqual(res.body, ok[0]?.body);
            for (const res of responses)
              assert.ok(res.status === 200 || res.error.code === 'idempotency_in_progress');
            const rows = await app.services.db.kysely
              .selectFrom('contractors')
              .select('id')
              .where('organization_id', '=', caller.organizationId)
              .where('email_normalized', '=', String(input.email).toLowerCase())
              .execute();
            assert.equal(rows.length, 1);
          },
        ),
        { numRuns: 15 },
      );
    });
  });
}
