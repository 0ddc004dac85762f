import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import nodemailer from 'nodemailer';
import { openDatabase } from '../../src/db/database.ts';
import { einvoiceFixture } from '../receipts/extraction/einvoice-fixtures.ts';
import { call } from '../support/http.ts';
import { BIN, childEnv, runCli, startServe } from '../support/processes.ts';

/**
 * `serve` and `worker` open the inbound SMTP listener when ACCOUNTING_INBOUND_SMTP_PORT is set, as
 * an operator runs them: a real SMTP client delivers a receipt to the organization's inbox address
 * and it becomes an inbox item (the listener itself is tested in test/inbound).
 */

const dir = mkdtempSync(path.join(tmpdir(), 'accounting-inbound-start-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

/** Waits until something accepts connections on the port (the worker prints no banner). */
async function waitForPort(port: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Each send carries another document: the inbox keeps one item per identical file. */
function sendReceipt(
  port: number,
  from: string,
  to: string,
  fileName: string,
  fixture: 'ubl-invoice.xml' | 'cii-invoice.xml',
) {
  return nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true }).sendMail({
    from,
    to,
    subject: 'Receipt',
    text: 'attached',
    attachments: [
      {
        filename: fileName,
        content: einvoiceFixture(fixture),
        contentType: 'application/xml',
      },
    ],
  });
}

async function inboxFileNames(organizationId: string): Promise<string[]> {
  const db = openDatabase({ dataDir: dir, databaseUrl: undefined });
  try {
    const rows = await db.kysely
      .selectFrom('receipts')
      .select('file_name')
      .where('organization_id', '=', organizationId)
      .orderBy('file_name')
      .execute();
    return rows.map((row) => String(row.file_name));
  } finally {
    await db.close();
  }
}

it('serve and worker each receive mail on ACCOUNTING_INBOUND_SMTP_PORT', async () => {
  const email = 'owner@example.com';
  const init = await runCli(['init', '--json', '--email', email], { ACCOUNTING_DATA_DIR: dir });
  assert.equal(init.code, 0, init.stderr);
  const { organizationId, apiKey } = JSON.parse(init.stdout) as { organizationId: string; apiKey: string };
  const port = await freePort();
  const env = {
    ACCOUNTING_DATA_DIR: dir,
    ACCOUNTING_INBOUND_SMTP_PORT: String(port),
    ACCOUNTING_INBOUND_SMTP_HOST: '127.0.0.1',
    ACCOUNTING_INBOUND_DOMAIN: 'in.example.test',
  };

  const serve = await startServe(env);
  let address: string;
  try {
    const got = await call(serve.baseUrl, 'inbox.address.get', {}, { token: apiKey });
    assert.equal(got.status, 200, JSON.stringify(got.body));
    address = String(got.data.address);
    assert.match(address, /@in\.example\.test$/);
    await sendReceipt(port, email, address, 'by-serve.xml', 'ubl-invoice.xml');
    const listed = await call(serve.baseUrl, 'inbox.list', {}, { token: apiKey });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal((listed.data.items as unknown[]).length, 1);
  } finally {
    await serve.stop();
  }

  const worker = spawn(BIN, ['worker'], { env: childEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  worker.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  try {
    await waitForPort(port);
    await sendReceipt(port, email, address, 'by-worker.xml', 'cii-invoice.xml');
    assert.deepEqual(await inboxFileNames(organizationId), ['by-serve.xml', 'by-worker.xml'], stderr);
  } finally {
    worker.kill('SIGTERM');
    await exited;
  }
});
