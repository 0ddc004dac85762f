import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type ServeProcess, startServe } from '../support/processes.ts';

/**
 * docs/quickstart.md, run as written against a real `serve` process: every API call is taken from
 * the document (operation, Idempotency-Key, body, jq path, the variable it sets), shell variables
 * are substituted as the shell would, and the receiver is the document's own one-liner.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const doc = readFileSync(path.join(root, 'docs/quickstart.md'), 'utf8');

interface Step {
  variable: string;
  operation: string;
  key: string;
  body: string;
  jqPath: string[];
}

const STEP =
  /(\w+)=\$\(curl -s "\$ACCOUNTING\/api\/v1\/accounting\/([\w.]+)" \\\n\s+-H "Authorization: Bearer \$API_KEY" -H "Content-Type: application\/json" \\\n\s+-H "Idempotency-Key: ([\w-]+)" -d @- <<EOF \| jq -r \.([\w.]+)\n(.*)\nEOF\n\)/g;

function steps(): Step[] {
  return [...doc.matchAll(STEP)].map((match) => ({
    variable: match[1] ?? '',
    operation: match[2] ?? '',
    key: match[3] ?? '',
    jqPath: (match[4] ?? '').split('.'),
    body: match[5] ?? '',
  }));
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

describe('docs/quickstart.md', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'accounting-quickstart-'));
  let serve: ServeProcess;
  let receiver: ChildProcess;
  let received = '';
  let receiverPort = 0;
  before(async () => {
    // The document's serve command lists the receiver's port for the localhost exception.
    assert.match(doc, /```sh\nACCOUNTING_WEBHOOK_LOCALHOST_PORTS=4000 \.\/bin\/accounting serve\n```/);
    receiverPort = await freePort();
    serve = await startServe({
      ACCOUNTING_DATA_DIR: dataDir,
      ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: String(receiverPort),
    });
    const receiverCode = /```sh\nnode -e '(.*)'\n```/.exec(doc)?.[1];
    assert.ok(receiverCode, 'the receiver one-liner');
    receiver = spawn(
      process.execPath,
      ['-e', receiverCode.replace('.listen(4000)', `.listen(${receiverPort})`)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    receiver.stdout?.on('data', (chunk: Buffer) => {
      received += chunk.toString();
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
  });
  after(async () => {
    receiver.kill();
    await serve.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('walks party -> invoice -> send -> payment -> invoice.paid at the local receiver', async () => {
    const apiKey = /API key:\s+(\S+)/.exec(serve.banner)?.[1];
    assert.ok(apiKey, serve.banner);
    const vars: Record<string, string> = { TODAY: new Date().toISOString().slice(0, 10) };
    const found = steps();
    assert.deepEqual(
      found.map((step) => step.operation),
      [
        'webhooks.endpoints.create',
        'parties.create',
        'invoices.create',
        'invoices.send',
        'invoices.payments.record',
      ],
    );
    const statuses: string[] = [];
    for (const step of found) {
      const body = step.body
        .replace(/\$(\w+)/g, (_, name: string) => vars[name] ?? `$${name}`)
        .replace('http://localhost:4000/', `http://localhost:${receiverPort}/`);
      assert.doesNotMatch(body, /\$\w/, `${step.operation}: every variable is set by an earlier step`);
      const res = await fetch(`${serve.baseUrl}/api/v1/accounting/${step.operation}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': step.key,
        },
        body,
      });
      const json = (await res.json()) as Record<string, unknown>;
      assert.equal(res.status, 200, `${step.operation}: ${JSON.stringify(json)}`);
      let value: unknown = json;
      for (const part of step.jqPath) value = (value as Record<string, unknown>)[part];
      assert.equal(typeof value, 'string', `${step.operation}: .${step.jqPath.join('.')}`);
      vars[step.variable] = String(value);
      if (step.variable === 'STATUS') statuses.push(String(value));
    }
    assert.deepEqual(statuses, ['sent', 'paid'], 'the statuses the document announces');

    const deadline = Date.now() + 15_000;
    while (!received.includes('invoice.paid ') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const line = received.split('\n').find((entry) => entry.startsWith('invoice.paid '));
    assert.ok(line, `the receiver printed invoice.paid: ${received}`);
    const event = JSON.parse(line.slice('invoice.paid '.length)) as {
      type: string;
      subject: { id: string };
      data: { number: string; status: string; totalMinor: string };
    };
    assert.equal(event.type, 'invoice.paid');
    assert.equal(event.subject.id, vars.INVOICE_ID);
    assert.deepEqual(
      [event.data.number, event.data.status, event.data.totalMinor],
      ['INV-000001', 'paid', '50000'],
    );
  });
});
