import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { buildServer } from '../../src/server.ts';
import { createServices } from '../../src/services.ts';
import { call } from '../support/http.ts';
import { runCli } from '../support/processes.ts';

/** `accounting mail list`: the real CLI over a database where a letter was uploaded through the API. */

const dir = mkdtempSync(path.join(tmpdir(), 'accounting-cli-mail-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('mail list prints the letters (JSON or lines), archived ones only with --archived', async () => {
  const env = { ACCOUNTING_DATA_DIR: dir };
  const init = JSON.parse((await runCli(['init', '--json'], env)).stdout) as Record<string, string>;
  const org = String(init.organizationId);
  const keyRun = await runCli(
    [
      'keys',
      'create',
      '--org',
      org,
      '--member',
      String(init.memberId),
      '--scopes',
      'mail:read,mail:write',
      '--json',
    ],
    env,
  );
  assert.equal(keyRun.code, 0, keyRun.stderr);
  const token = String((JSON.parse(keyRun.stdout) as Record<string, unknown>).apiKey);
  const services = await createServices(loadConfig({ ...env, LOG_LEVEL: 'silent' }), {
    logger: pino({ level: 'silent' }),
  });
  const server = await buildServer(services);
  let id = '';
  try {
    const baseUrl = await server.listen({ port: 0, host: '127.0.0.1' });
    const made = await call(
      baseUrl,
      'mail.items.upload',
      {
        sender: 'City Hall',
        subject: 'Parking permit',
        receivedAt: '2020-01-01T00:00:00.000Z',
        files: [
          { mediaType: 'application/pdf', contentBase64: Buffer.from('%PDF-1.4\n').toString('base64') },
        ],
      },
      { token },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    id = String(made.data.id);
  } finally {
    await server.close();
    await services.db.close();
  }
  const [json, text, archived] = await Promise.all([
    runCli(['mail', 'list', '--org', org, '--json'], env),
    runCli(['mail', 'list', '--org', org], env),
    runCli(['mail', 'list', '--org', org, '--archived', '--json'], env),
  ]);
  assert.equal(json.code, 0, json.stderr);
  const rows = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
  assert.deepEqual(rows, [
    {
      mailItemId: id,
      channel: 'post',
      receivedAt: '2020-01-01T00:00:00.000Z',
      state: 'unread',
      files: 1,
      scanPurgedAt: null,
      sender: 'City Hall',
      subject: 'Parking permit',
    },
  ]);
  assert.match(text.stdout, new RegExp(`^${id}  post .* unread .* City Hall — Parking permit$`, 'm'));
  assert.deepEqual(JSON.parse(archived.stdout), []);

  // A subject from inbound mail with terminal escape sequences, a C1 control and a bidi override:
  // printed inert (U+FFFD on lines, \u escapes in JSON that decode to the stored text).
  const hostile = 'Invoice\u001b[2J\u001b]0;pwned\u0007 \u009b31mred \u202eevil';
  const db = await createServices(loadConfig({ ...env, LOG_LEVEL: 'silent' }), {
    logger: pino({ level: 'silent' }),
  });
  try {
    await db.db.kysely.updateTable('mail_items').set({ subject: hostile }).where('id', '=', id).execute();
  } finally {
    await db.db.close();
  }
  const [hostileJson, hostileText] = await Promise.all([
    runCli(['mail', 'list', '--org', org, '--json'], env),
    runCli(['mail', 'list', '--org', org], env),
  ]);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
  const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;
  assert.doesNotMatch(hostileText.stdout, raw, 'no control or bidi character reaches the terminal');
  assert.match(hostileText.stdout, /Invoice\ufffd\[2J\ufffd\]0;pwned\ufffd \ufffd31mred \ufffdevil$/m);
  assert.doesNotMatch(hostileJson.stdout, raw);
  assert.equal((JSON.parse(hostileJson.stdout) as Array<{ subject: string }>)[0]?.subject, hostile);
});
