import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { addMember, createApiKey, createOrganization } from '../../src/admin/organizations.ts';
import { ACCOUNTING_SCOPES } from '../../src/contract/access.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.ts';
import { type ApiResponse, call } from '../support/http.ts';
import { type ServeProcess, startServe } from '../support/processes.ts';

/**
 * Exactly once under stalls (decision 175): process A claims an idempotency key and freezes
 * (SIGSTOP, the test hook ACCOUNTING_TEST_STALL_AFTER_CLAIM), longer than its 1 s lock; the client
 * retries on process B; then A resumes. One effect may commit, and every answer names it.
 * Parties without email are used because nothing else (no unique email) stops a second copy.
 */

const LOCK = '1s';

function waitForLine(server: ServeProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (!seen.includes(text)) return;
      server.child.stdout?.off('data', onData);
      resolve();
    };
    server.child.stdout?.on('data', onData);
  });
}

for (const dialect of DIALECTS) {
  describe(`a stalled idempotency holder (${dialect})`, () => {
    let database: TestDatabase;
    let stalling: ServeProcess;
    let other: ServeProcess;
    let token: string;
    let organizationId: string;

    before(async () => {
      database = await createTestDatabase(dialect);
      const { kysely } = database.db;
      organizationId = (await createOrganization(kysely, systemClock, { name: 'Fencing' })).id;
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
      const env = { ...database.env, NODE_ENV: 'test', ACCOUNTING_IDEMPOTENCY_LOCK: LOCK };
      [stalling, other] = await Promise.all([
        startServe({ ...env, ACCOUNTING_TEST_STALL_AFTER_CLAIM: 'stall-' }),
        startServe(env),
      ]);
    });
    after(async () => {
      // A stopped process would never act on SIGTERM.
      stalling?.child.kill('SIGCONT');
      await Promise.all([stalling?.stop(), other?.stop()]);
      await database?.drop();
    });

    const create = (server: ServeProcess, input: Record<string, unknown>, key: string) =>
      call(server.baseUrl, 'parties.create', input, { token, idempotencyKey: key });

    async function partiesNamed(name: string): Promise<string[]> {
      const rows = await database.db.kysely
        .selectFrom('parties')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('name', '=', name)
        .execute();
      return rows.map((row) => row.id);
    }

    it('commits one effect, and the client gets its id from both processes', async () => {
      const key = `stall-${randomUUID()}`;
      const input = { name: `Stalled ${key}` };
      const stalled = waitForLine(stalling, `stalled after claiming ${key}`);
      const first = create(stalling, input, key);
      await stalled;
      assert.equal(stalling.child.signalCode, null, 'A is stopped, not dead');

      // The client retries on B while A is frozen. PostgreSQL: A's claim committed on its own, so B
      // answers 409 until A's lock runs out, then takes the key over. SQLite: A froze inside its
      // BEGIN IMMEDIATE transaction (claim, effect and completion are one), so B cannot write at
      // all (503 after busy_timeout) and nothing of A's is visible.
      const retries: ApiResponse[] = [];
      let winner: ApiResponse | undefined;
      for (let attempt = 0; attempt < 40 && !winner; attempt += 1) {
        const res = await create(other, input, key);
        if (res.status === 200) winner = res;
        else retries.push(res);
        if (dialect === 'sqlite' && retries.length > 0) break;
        if (!winner) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      for (const res of retries) {
        const expected =
          dialect === 'postgres' ? [409, 'idempotency_in_progress'] : [503, 'service_unavailable'];
        assert.deepEqual([res.status, res.error.code], expected);
      }
      if (dialect === 'postgres') assert.ok(winner, 'B took the key over after A’s lock ran out');
      else assert.equal(winner, undefined, 'B cannot commit while A holds the SQLite write lock');

      stalling.child.kill('SIGCONT');
      const resumed = await first;
      assert.equal(resumed.status, 200, JSON.stringify(resumed.body));
      if (winner) {
        // A ran its effect after waking, found its claim taken over, rolled back and answered B's.
        assert.deepEqual(resumed.body, winner.body);
        assert.equal(resumed.headers.get('idempotent-replayed'), 'true');
      }
      const id = String(resumed.data.id);

      assert.deepEqual(await partiesNamed(input.name), [id], 'exactly one party');
      for (const server of [stalling, other, stalling, other]) {
        const replay = await create(server, input, key);
        assert.deepEqual([replay.status, replay.data.id], [200, id]);
        assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      }
      const audit = await database.db.kysely
        .selectFrom('audit_log')
        .select('record_id')
        .where('organization_id', '=', organizationId)
        .where('operation', '=', 'parties.create')
        .where('record_type', '=', 'party')
        .execute();
      assert.deepEqual(
        audit.filter((row) => row.record_id === id).length,
        1,
        'one audit row for the one effect',
      );
      assert.deepEqual(await partiesNamed(input.name), [id]);
    });

    it('does not wait on a holder stalled inside its completing transaction', {
      skip:
        dialect === 'sqlite' ? 'one writer at a time: a held SQLite transaction blocks every write' : false,
    }, async () => {
      const input = { name: `Locked ${randomUUID()}` };
      // A completed key gives the request hash of this input.
      const hashKey = `hash-${randomUUID()}`;
      const done = await create(other, input, hashKey);
      assert.equal(done.status, 200);
      const model = await database.db.kysely
        .selectFrom('idempotency_keys')
        .select(['request_hash', 'expires_at'])
        .where('organization_id', '=', organizationId)
        .where('key', '=', hashKey)
        .executeTakeFirstOrThrow();
      const key = `locked-${randomUUID()}`;
      const past = new Date(Date.now() - 60_000).toISOString();
      await database.db.kysely
        .insertInto('idempotency_keys')
        .values({
          organization_id: organizationId,
          key,
          operation: 'parties.create',
          request_hash: model.request_hash,
          state: 'running',
          locked_until: past,
          claim_token: 'stalled-holder',
          response_status: null,
          response_body: null,
          created_at: past,
          expires_at: model.expires_at,
        })
        .execute();
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked: () => void = () => {};
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      // The stalled holder: its transaction locked the key row (its completion) and never ends.
      const holder = database.db.kysely.transaction().execute(async (trx) => {
        await trx
          .selectFrom('idempotency_keys')
          .select('key')
          .where('organization_id', '=', organizationId)
          .where('key', '=', key)
          .forUpdate()
          .execute();
        locked();
        await held;
        throw new Error('roll back');
      });
      await isLocked;
      const refused = await create(other, input, key);
      assert.deepEqual([refused.status, refused.error.code], [409, 'idempotency_in_progress']);
      release();
      await assert.rejects(holder, /roll back/);
      const taken = await create(other, input, key);
      assert.equal(taken.status, 200);
      assert.deepEqual(await partiesNamed(input.name), [done.data.id, taken.data.id].sort());
    });
  });
}
