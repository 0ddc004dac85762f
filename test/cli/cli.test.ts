import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { isId } from '../../src/contract/formats.ts';
import { buildServer } from '../../src/server.ts';
import { createServices } from '../../src/services.ts';
import { DIALECTS, TEST_POSTGRES_URL } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import { contractorInput } from '../support/factories.ts';
import { call } from '../support/http.ts';
import { runCli, startServe } from '../support/processes.ts';
import { disableEndpointRow } from '../webhooks/endpoint-helpers.ts';

/**
 * `./bin/accounting` as a user runs it: real child processes on a fresh data folder. Keys printed
 * by the CLI are then used against the API, served either by `serve` itself or by an in-process
 * server opened on the same database.
 */

const API_KEY = /^ak_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/;

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'accounting-cli-'));
  dirs.push(dir);
  return dir;
}
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function json(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split('\n');
  assert.equal(lines.length, 1, `one JSON line on stdout, got: ${stdout}`);
  return JSON.parse(lines[0] ?? '') as Record<string, unknown>;
}

/** The API over the same database the CLI wrote, served in this process. */
async function withApi<T>(
  env: { ACCOUNTING_DATA_DIR: string },
  use: (baseUrl: string) => Promise<T>,
): Promise<T> {
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

describe('accounting CLI on SQLite', { concurrency: true }, () => {
  it('init --json prints {organizationId, memberId, apiKey} once, and serve then accepts the key', async () => {
    const env = { ACCOUNTING_DATA_DIR: dataDir() };
    const init = await runCli(['init', '--json'], env);
    assert.equal(init.code, 0, init.stderr);
    const created = json(init.stdout);
    assert.deepEqual(Object.keys(created).sort(), ['apiKey', 'memberId', 'organizationId']);
    assert.ok(isId(created.organizationId) && isId(created.memberId));
    assert.match(String(created.apiKey), API_KEY);

    const again = await runCli(['init', '--json'], env);
    assert.equal(again.code, 1);
    assert.equal(again.stdout, '');
    assert.match(again.stderr, /only on an empty database/);

    const server = await startServe(env);
    try {
      assert.doesNotMatch(server.banner, /API key/, 'no new key on a database that has one');
      const token = String(created.apiKey);
      const list = await call(server.baseUrl, 'contractors.list', {}, { token });
      assert.equal(list.status, 200);
      const made = await call(server.baseUrl, 'contractors.create', contractorInput(), { token });
      assert.equal(made.status, 200);
      assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
      assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
      const metrics = await fetch(`${server.baseUrl}/metrics`);
      assert.match(await metrics.text(), /# TYPE/);
    } finally {
      await server.stop();
    }
  });

  it('serve on an empty data folder prints a working key on its first run only', async () => {
    const env = { ACCOUNTING_DATA_DIR: dataDir() };
    const first = await startServe(env);
    let token = '';
    try {
      const match = /API key:\s+(\S+)/.exec(first.banner);
      assert.ok(match?.[1], first.banner);
      token = match[1];
      assert.match(token, API_KEY);
      const res = await call(first.baseUrl, 'contractors.list', {}, { token });
      assert.equal(res.status, 200);
    } finally {
      await first.stop();
    }
  });

  it('orgs, members and keys commands print JSON, and what they make works (or stops working)', async () => {
    const env = { ACCOUNTING_DATA_DIR: dataDir() };
    const org = json((await runCli(['orgs', 'create', '--name', 'Acme', '--json'], env)).stdout);
    assert.equal(org.name, 'Acme');
    assert.ok(isId(org.organizationId));
    const organizationId = String(org.organizationId);
    const member = json(
      (
        await runCli(
          [
            'members',
            'add',
            '--org',
            organizationId,
            '--email',
            'f@example.com',
            '--role',
            'finance',
            '--json',
          ],
          env,
        )
      ).stdout,
    );
    assert.deepEqual([member.organizationId, member.role], [organizationId, 'finance']);
    const memberId = String(member.memberId);
    const key = json(
      (
        await runCli(
          [
            'keys',
            'create',
            '--org',
            organizationId,
            '--member',
            memberId,
            '--scopes',
            'accounting:read',
            '--json',
          ],
          env,
        )
      ).stdout,
    );
    assert.deepEqual(key.scopes, ['accounting:read']);
    assert.match(String(key.apiKey), API_KEY);
    const token = String(key.apiKey);

    await withApi(env, async (baseUrl) => {
      assert.equal((await call(baseUrl, 'contractors.list', {}, { token })).status, 200);
      const write = await call(baseUrl, 'contractors.create', contractorInput(), { token });
      assertError(write, 403, 'insufficient_scope', 'read-only key');
    });

    const revoke = await runCli(
      ['keys', 'revoke', '--org', organizationId, '--key', String(key.keyId), '--json'],
      env,
    );
    assert.deepEqual(json(revoke.stdout), { keyId: key.keyId, revoked: true });
    const twice = await runCli(['keys', 'revoke', '--org', organizationId, '--key', String(key.keyId)], env);
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /invalid_state: The API key is already revoked/);
    await withApi(env, async (baseUrl) => {
      assertError(
        await call(baseUrl, 'contractors.list', {}, { token }),
        401,
        'invalid_credential',
        'revoked',
      );
    });

    // Suspension through the CLI (and its audit rows): test/cli/admin-rules.test.ts.
  });

  it('init --org-name --time-zone, then orgs list, members list and keys list (never the key)', async () => {
    const env = { ACCOUNTING_DATA_DIR: dataDir() };
    const badZone = await runCli(['init', '--time-zone', 'Mars/Olympus'], env);
    assert.equal(badZone.code, 2, badZone.stderr);
    assert.match(badZone.stderr, /--time-zone Mars\/Olympus is not an IANA time zone/);
    const init = await runCli(['init', '--org-name', 'Acme', '--time-zone', 'Europe/Paris', '--json'], env);
    assert.equal(init.code, 0, init.stderr);
    const created = json(init.stdout);
    const organizationId = String(created.organizationId);

    const orgs = await runCli(['orgs', 'list', '--json'], env);
    assert.equal(orgs.code, 0, orgs.stderr);
    const orgRows = JSON.parse(orgs.stdout) as Array<Record<string, unknown>>;
    assert.deepEqual(
      orgRows.map((row) => [row.organizationId, row.name, row.timeZone]),
      [[organizationId, 'Acme', 'Europe/Paris']],
    );
    const text = await runCli(['orgs', 'list'], env);
    assert.match(text.stdout, new RegExp(`^${organizationId}  Europe/Paris  Acme$`, 'm'));

    const members = JSON.parse(
      (await runCli(['members', 'list', '--org', organizationId, '--json'], env)).stdout,
    ) as Array<Record<string, unknown>>;
    assert.deepEqual(
      members.map((row) => [row.memberId, row.role, row.status]),
      [[created.memberId, 'admin', 'active']],
    );
    const keys = await runCli(['keys', 'list', '--org', organizationId, '--json'], env);
    assert.equal(keys.code, 0, keys.stderr);
    const apiKey = String(created.apiKey);
    assert.ok(!keys.stdout.includes(apiKey.slice(-20)), 'keys list never prints the key');
    const keyRows = JSON.parse(keys.stdout) as Array<Record<string, unknown>>;
    assert.equal(keyRows.length, 1);
    assert.equal(keyRows[0]?.createdBy, created.memberId);
    assert.equal(keyRows[0]?.status, 'active');
    assert.deepEqual(keyRows[0]?.scopes, ['accounting:read', 'accounting:write', 'accounting:admin']);

    const missing = await runCli(['keys', 'list', '--org', '01920000-0000-7000-8000-000000000001'], env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /does not exist/);
    const help = await runCli(['--help'], env);
    assert.match(help.stdout, /--org-name N/);
    assert.match(help.stdout, /--time-zone TZ/);
    assert.match(help.stdout, /keys list --org ID/);
  });

  it('webhooks enable turns an auto-disabled endpoint back on, and refuses one that is not disabled', async () => {
    const env = { ACCOUNTING_DATA_DIR: dataDir() };
    const init = json((await runCli(['init', '--json'], env)).stdout);
    const token = String(init.apiKey);
    const organizationId = String(init.organizationId);
    const endpointId = await withApi(env, async (baseUrl) => {
      const made = await call(
        baseUrl,
        'webhooks.endpoints.create',
        { url: 'https://hooks.example.com/in', events: ['*'] },
        { token },
      );
      assert.equal(made.status, 200, JSON.stringify(made.body));
      return String((made.data.endpoint as { id: string }).id);
    });
    // The state the delivery worker leaves after 20 failures in a row.
    const services = await createServices(loadConfig({ ...env, LOG_LEVEL: 'silent' }), {
      logger: pino({ level: 'silent' }),
    });
    await disableEndpointRow(services.db.kysely, new Date(), organizationId, endpointId);
    await services.db.close();

    const stale = await runCli(
      ['webhooks', 'enable', '--org', organizationId, '--endpoint', endpointId, '--revision', '1'],
      env,
    );
    assert.equal(stale.code, 2, stale.stderr);
    assert.match(stale.stderr, /revision/);
    const enabled = await runCli(
      ['webhooks', 'enable', '--org', organizationId, '--endpoint', endpointId, '--json'],
      env,
    );
    assert.equal(enabled.code, 0, enabled.stderr);
    assert.deepEqual(json(enabled.stdout), { endpointId, status: 'active', revision: 3 });
    await withApi(env, async (baseUrl) => {
      const got = await call(baseUrl, 'webhooks.endpoints.get', { id: endpointId }, { token });
      assert.equal(got.status, 200);
      assert.deepEqual(
        [got.data.status, got.data.active, got.data.failure_count, got.data.disabled_reason],
        ['active', true, 0, null],
      );
    });
    const again = await runCli(
      ['webhooks', 'enable', '--org', organizationId, '--endpoint', endpointId],
      env,
    );
    assert.equal(again.code, 2);
    assert.match(again.stderr, /An active endpoint cannot be enabled/);
  });

  it('usage errors exit with 2 and say what is wrong', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /Usage: accounting/],
      [['frobnicate'], /unknown command: frobnicate/],
      [['orgs', 'create'], /--name is required/],
      [
        ['members', 'add', '--org', 'not-a-uuid', '--email', 'a@b.c', '--role', 'admin'],
        /--org must be a UUID/,
      ],
      [['keys', 'create', '--colour', 'red'], /Unknown option '--colour'/],
    ];
    // Each in its own folder: commands that open a fresh database migrate it first.
    const results = await Promise.all(
      cases.map(([args]) => runCli(args, { ACCOUNTING_DATA_DIR: dataDir() })),
    );
    results.forEach((result, i) => {
      const [args, message] = cases[i] ?? [[], /./];
      assert.equal(result.code, 2, `accounting ${args.join(' ')}: ${result.stderr}`);
      assert.match(`${result.stdout}${result.stderr}`, message, args.join(' '));
    });
    const help = await runCli(['--help'], { ACCOUNTING_DATA_DIR: dataDir() });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /members set-status/);
  });

  it('migrate brings a new database up to date and is a no-op the second time', async () => {
    const env = { ACCOUNTING_DATA_DIR: dataDir() };
    const first = await runCli(['migrate'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^Applied: 0001-core/);
    const second = await runCli(['migrate'], env);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, 'Schema is up to date.\n');
  });

  it('four processes migrating one fresh SQLite file at once: one applies, the rest wait and find it done', async () => {
    const env = { ACCOUNTING_DATA_DIR: dataDir() };
    const results = await Promise.all([1, 2, 3, 4].map(() => runCli(['migrate'], env)));
    for (const result of results) assert.equal(result.code, 0, result.stderr);
    const applied = results.filter((result) => result.stdout.startsWith('Applied: 0001-core'));
    assert.equal(applied.length, 1, results.map((result) => result.stdout).join(' | '));
    assert.equal(results.filter((result) => result.stdout === 'Schema is up to date.\n').length, 3);
  });
});

describe('accounting CLI on PostgreSQL', {
  skip: DIALECTS.includes('postgres') ? false : 'needs PostgreSQL',
}, () => {
  const name = `acct_cli_${process.pid}_${Date.now().toString(36)}`;
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  after(() => admin(`drop database if exists ${name} with (force)`));

  it('migrate (twice) and init --json on an empty database', async () => {
    await admin(`create database ${name}`);
    const env = { DATABASE_URL: url.toString(), ACCOUNTING_DATA_DIR: dataDir() };
    assert.match((await runCli(['migrate'], env)).stdout, /^Applied: /);
    assert.equal((await runCli(['migrate'], env)).stdout, 'Schema is up to date.\n');
    const init = await runCli(['init', '--json'], env);
    assert.equal(init.code, 0, init.stderr);
    assert.match(String(json(init.stdout).apiKey), API_KEY);
  });
});
