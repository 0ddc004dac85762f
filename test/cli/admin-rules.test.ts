import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { buildServer } from '../../src/server.ts';
import { createServices } from '../../src/services.ts';
import { DIALECTS, TEST_POSTGRES_URL } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import { call } from '../support/http.ts';
import { runCli } from '../support/processes.ts';

/**
 * The CLI's administration goes through the API's domain rules (last active admin, no key for an
 * inactive member, revisions) and writes audit rows as the operator over the `cli` transport.
 * Real child processes; the audit trail is read back through admin.auditLog.list.
 */

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

type Env = Record<string, string>;

async function freshEnv(dialect: string): Promise<Env> {
  const dir = mkdtempSync(path.join(tmpdir(), 'accounting-cli-rules-'));
  dirs.push(dir);
  if (dialect === 'sqlite') return { ACCOUNTING_DATA_DIR: dir };
  const name = `acct_cli_rules_${process.pid}_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  after(async () => {
    const dropper = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await dropper.connect();
    await dropper.query(`drop database if exists ${name} with (force)`);
    await dropper.end();
  });
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return { ACCOUNTING_DATA_DIR: dir, DATABASE_URL: url.toString() };
}

async function cli(env: Env, args: string[]): Promise<Record<string, unknown>> {
  const result = await runCli([...args, '--json'], env);
  assert.equal(result.code, 0, `accounting ${args.join(' ')}: ${result.stderr}`);
  return JSON.parse(result.stdout.trim()) as Record<string, unknown>;
}

async function refused(env: Env, args: string[], message: RegExp): Promise<void> {
  const result = await runCli(args, env);
  assert.equal(result.code, 2, `accounting ${args.join(' ')} should be refused: ${result.stdout}`);
  assert.match(result.stderr, message, args.join(' '));
}

async function withApi<T>(env: Env, use: (baseUrl: string) => Promise<T>): Promise<T> {
  const services = await createServices(loadConfig({ ...env, LOG_LEVEL: 'silent' }), {
    logger: pino({ level: 'silent' }),
  });
  const server = await buildServer(services);
  try {
    return await use(await server.listen({ port: 0, host: '127.0.0.1' }));
  } finally {
    await server.close();
    await services.db.close();
  }
}

// Each CLI run loads the program anew (seconds on a loaded machine), so one scenario runs the
// real CLI on each database; every rule is also tested in-process in test/admin/operator.test.ts.
for (const dialect of DIALECTS) {
  describe(`CLI administration (${dialect})`, () => {
    it('goes through the API rules and audits every change as the operator over the cli transport', async () => {
      const env = await freshEnv(dialect);
      const init = await cli(env, ['init']);
      const org = String(init.organizationId);
      await refused(
        env,
        ['members', 'set-status', '--org', org, '--member', String(init.memberId), '--status', 'suspended'],
        /last_admin: The organization must keep at least one active admin/,
      );
      const added = await cli(env, [
        'members',
        'add',
        '--org',
        org,
        '--email',
        'a@example.com',
        '--role',
        'finance',
      ]);
      const memberArgs = ['--org', org, '--member', String(added.memberId)];
      const key = await cli(env, ['keys', 'create', ...memberArgs, '--scopes', 'accounting:read,mail:read']);
      assert.deepEqual(key.scopes, ['accounting:read', 'mail:read']);
      const suspended = await cli(env, ['members', 'set-status', ...memberArgs, '--status', 'suspended']);
      assert.deepEqual(suspended, { memberId: added.memberId, status: 'suspended', revision: 2 });
      await refused(
        env,
        ['keys', 'create', ...memberArgs],
        /invalid_state: Keys are made only for active members/,
      );
      const entries = await withApi(env, async (baseUrl) => {
        // The suspension ended the member's key at once.
        assertError(
          await call(baseUrl, 'contractors.list', {}, { token: String(key.apiKey) }),
          401,
          'invalid_credential',
        );
        const res = await call(baseUrl, 'admin.auditLog.list', { limit: 50 }, { token: String(init.apiKey) });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.data.items as Array<Record<string, unknown>>;
      });
      const seen = entries.map((e) => [
        e.operation,
        e.record_type,
        e.record_id,
        e.before_revision,
        e.after_revision,
      ]);
      const initKeyId = seen.find((row) => row[0] === 'init' && row[1] === 'api_key')?.[2];
      assert.deepEqual(
        [...seen].sort(
          (a, b) =>
            String(a[0]).localeCompare(String(b[0])) ||
            String(a[1]).localeCompare(String(b[1])) ||
            Number(a[4]) - Number(b[4]),
        ),
        [
          ['admin.apiKeys.create', 'api_key', key.keyId, null, 1],
          ['admin.members.add', 'member', added.memberId, null, 1],
          ['admin.members.suspend', 'api_key', key.keyId, 1, 2],
          ['admin.members.suspend', 'member', added.memberId, 1, 2],
          ['init', 'api_key', initKeyId, null, 1],
          ['init', 'member', init.memberId, null, 1],
          ['init', 'organization', org, null, 1],
        ],
      );
      for (const entry of entries) {
        assert.deepEqual([entry.transport, entry.actor_type, entry.credential_id], ['cli', 'operator', null]);
        assert.match(String(entry.actor_id), /^operator:.+/);
      }
    });
  });
}
