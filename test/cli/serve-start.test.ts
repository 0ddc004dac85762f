import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import { dbJson } from '../../src/db/values.ts';
import { newId } from '../../src/lib/ids.ts';
import { runCli, startServe } from '../support/processes.ts';

/**
 * `serve` as an operator runs it, as a real child process: it takes its port before it does
 * anything else, and a port it cannot take ends the process with a clear message and no work done.
 * The probe for "a job ran" is a pending mail row: without SMTP_URL the mail job marks it `kept`.
 */

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function mailStatus(dataDir: string, id: string): Promise<string> {
  const db = openDatabase({ dataDir, databaseUrl: undefined });
  try {
    const row = await db.kysely
      .selectFrom('mail_outbox')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.status;
  } finally {
    await db.close();
  }
}

describe('serve start-up', () => {
  it('exits non-zero with a clear message on a busy port, and runs no job', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'accounting-serve-'));
    dirs.push(dataDir);
    const init = await runCli(['init', '--json'], { ACCOUNTING_DATA_DIR: dataDir });
    assert.equal(init.code, 0, init.stderr);
    const { organizationId } = JSON.parse(init.stdout) as { organizationId: string };
    const mailId = newId();
    const db = openDatabase({ dataDir, databaseUrl: undefined });
    const now = new Date().toISOString();
    await db.kysely
      .insertInto('mail_outbox')
      .values({
        id: mailId,
        organization_id: organizationId,
        recipients: dbJson(['probe@example.com']),
        subject: 'probe',
        text_body: 'probe',
        html_body: null,
        attachments: null,
        kind: null,
        status: 'pending',
        attempts: 0,
        last_error: null,
        next_attempt_at: now,
        locked_until: null,
        created_at: now,
        sent_at: null,
      })
      .execute();
    await db.close();

    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    assert.ok(address && typeof address === 'object');
    try {
      const busy = await runCli(['serve'], {
        ACCOUNTING_DATA_DIR: dataDir,
        PORT: String(address.port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      });
      assert.equal(busy.code, 1, `exit code; stderr: ${busy.stderr}`);
      assert.match(
        busy.stderr,
        new RegExp(`cannot listen on 127\\.0\\.0\\.1:${address.port}: the port is already in use`),
      );
      assert.doesNotMatch(busy.stdout, /Listening on/);
      // The start-up line about the http://localhost webhook exception (decision 140).
      assert.match(
        busy.stderr,
        /webhook endpoints at http:\/\/localhost are allowed \(default for NODE_ENV other than production\) on no port until ACCOUNTING_WEBHOOK_LOCALHOST_PORTS lists some/,
      );
      assert.equal(await mailStatus(dataDir, mailId), 'pending', 'no job ran');
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }

    // The same probe does move once serve can listen, so the assertion above can fail.
    const serve = await startServe({ ACCOUNTING_DATA_DIR: dataDir });
    try {
      const deadline = Date.now() + 15_000;
      let status = await mailStatus(dataDir, mailId);
      // 'sending' is the claim the dispatcher commits before it decides (no SMTP here: kept).
      while ((status === 'pending' || status === 'sending') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = await mailStatus(dataDir, mailId);
      }
      assert.equal(status, 'kept');
    } finally {
      await serve.stop();
    }
  });
});
