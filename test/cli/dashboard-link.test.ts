import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { buildServer } from '../../src/server.ts';
import { createServices } from '../../src/services.ts';
import { runCli } from '../support/processes.ts';

describe('accounting dashboard link (SQLite, no SMTP)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'accounting-dash-cli-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const env = { ACCOUNTING_DATA_DIR: dir };

  it('prints a one-time link that signs the member in to the dashboard', async () => {
    const init = await runCli(['init', '--json', '--email', 'owner@example.com'], env);
    assert.equal(init.code, 0, init.stderr);
    const unknown = await runCli(['dashboard', 'link', '--email', 'nobody@example.com'], env);
    assert.equal(unknown.code, 2, 'an address without a member is a usage error');
    assert.match(unknown.stderr, /no active member/);
    const printed = await runCli(['dashboard', 'link', '--email', 'owner@example.com', '--json'], env);
    assert.equal(printed.code, 0, printed.stderr);
    const [link] = JSON.parse(printed.stdout) as Array<{ url: string }>;
    assert.ok(link);
    const linkPath = new URL(link.url).pathname;
    assert.match(linkPath, /^\/dashboard\/sign-in\/link\/[A-Za-z0-9_-]{43}$/);

    const services = await createServices(loadConfig({ ...env, LOG_LEVEL: 'silent' }), {
      logger: pino({ level: 'silent' }),
    });
    const server = await buildServer(services);
    try {
      const base = await server.listen({ port: 0, host: '127.0.0.1' });
      const signed = await fetch(`${base}${linkPath}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: base },
      });
      assert.equal(signed.status, 303);
      const cookie = (signed.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      assert.match(cookie, /^acct_member=/);
      const home = await fetch(`${base}/dashboard`, { headers: { cookie } });
      assert.equal(home.status, 200);
      const reused = await fetch(`${base}${linkPath}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: base },
      });
      assert.equal(reused.status, 400, 'the link works once');
    } finally {
      await server.close();
      await services.db.close();
    }
  });
});
