import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { revokeApiKey } from '../../src/admin/organizations.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { BIN, callTool, connectStdio, toolKey } from './helpers.ts';
import { defineMcpSuite } from './suite.ts';

defineMcpSuite('stdio');

/** Runs `accounting mcp` with stdin closed at once; returns what it printed and its exit code. */
function runMcp(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, ['mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

for (const dialect of DIALECTS) {
  describe(`accounting mcp over stdio (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    it('refuses to start without ACCOUNTING_API_KEY or with a bad key, on stderr only', async () => {
      const base: NodeJS.ProcessEnv = { ...process.env, ...app.database.env, LOG_LEVEL: 'info' };
      delete base.ACCOUNTING_API_KEY;
      const missing = await runMcp(base);
      assert.equal(missing.code, 2);
      assert.equal(missing.stdout, '');
      assert.match(missing.stderr, /ACCOUNTING_API_KEY/);
      const bad = await runMcp({ ...base, ACCOUNTING_API_KEY: `${admin.token.slice(0, -3)}abc` });
      assert.equal(bad.code, 1);
      assert.equal(bad.stdout, '');
      assert.match(bad.stderr, /invalid_credential/);
    });

    it('applies the rate limit to tool calls: over it, isError rate_limited with retry_after_seconds', async () => {
      const caller = await createCaller(app);
      const connection = await connectStdio(app, caller.token, { ACCOUNTING_RATE_LIMIT: '2/1h' });
      try {
        const results = [];
        for (let i = 0; i < 3; i++)
          results.push(await callTool(connection.client, 'accounting_contractors_list', {}));
        assert.deepEqual(
          results.map((r) => r.isError),
          [false, false, true],
        );
        assert.equal(results[2]?.error.code, 'rate_limited');
        assert.ok(Number(results[2]?.error.retry_after_seconds) >= 1, results[2]?.text);
      } finally {
        await connection.close();
      }
    });

    it('logs to stderr only and stops honouring a key as soon as it is revoked', async () => {
      const connection = await connectStdio(app, admin.token);
      try {
        const ok = await callTool(connection.client, 'accounting_contractors_list', {});
        assert.equal(ok.isError, false, ok.text);
        const keys = await app.services.db.kysely
          .selectFrom('api_keys')
          .select('id')
          .where('member_id', '=', admin.memberId)
          .execute();
        for (const key of keys) {
          await revokeApiKey(app.services.db.kysely, app.clock, {
            organizationId: admin.organizationId,
            keyId: key.id,
          });
        }
        const refused = await callTool(connection.client, 'accounting_contractors_create', {
          displayName: 'Fay',
          legalName: 'Fay F',
          email: `${toolKey('revoked')}@example.com`,
          idempotencyKey: toolKey('revoked'),
        });
        assert.equal(refused.isError, true);
        assert.equal(refused.error.code, 'invalid_credential');
        // Structured JSON logs (pino) reached stderr; stdout carried only protocol messages.
        const lines = connection.stderr().split('\n').filter(Boolean);
        assert.ok(
          lines.some((line) => line.includes('"msg":"mcp tool call"')),
          connection.stderr(),
        );
      } finally {
        await connection.close();
      }
    });
  });
}
