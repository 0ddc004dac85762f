import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { TestClock } from '../../src/lib/clock.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { addEndpoint, type CreatedEndpoint, causeEvent } from '../support/webhook-delivery.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/accounting');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Worker {
  child: ChildProcess;
  stderr: string[];
  exited: Promise<void>;
}

for (const dialect of DIALECTS) {
  describe(`webhook delivery survives killed workers (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let receiver: WebhookReceiver;
    const running = new Set<Worker>();
    const logs: string[] = [];
    before(async () => {
      // Events get real timestamps: the worker processes compare them with their own clock.
      app = await startTestApp(dialect, { clock: new TestClock(new Date()) });
      admin = await createCaller(app);
      // Some answers are slow (kills land mid-attempt), every seventh is a 500 (retries).
      receiver = await startWebhookReceiver((_req, index) =>
        index % 7 === 3 ? { status: 500 } : index % 3 === 0 ? { status: 200, delayMs: 150 } : { status: 200 },
      );
    });
    after(async () => {
      for (const worker of running) worker.child.kill('SIGKILL');
      await Promise.all([...running].map((w) => w.exited));
      await receiver.close();
      await app.close();
    });

    function startWorker(): Worker {
      const child = spawn(BIN, ['worker'], {
        env: {
          ...process.env,
          DATABASE_URL: '',
          ...app.database.env,
          LOG_LEVEL: 'debug',
          SMTP_URL: '',
          ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST: 'true',
          ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: 'any',
          ACCOUNTING_WEBHOOK_TIMEOUT: '1s',
          ACCOUNTING_WEBHOOK_LEASE: '2s',
          ACCOUNTING_WEBHOOK_RETRY_SCHEDULE: '0,200ms,200ms,200ms,200ms,200ms,200ms,200ms',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const stderr: string[] = [];
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
        stderr.push(chunk);
        logs.push(chunk);
      });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const worker = { child, stderr, exited };
      running.add(worker);
      void exited.then(() => running.delete(worker));
      return worker;
    }

    async function started(worker: Worker): Promise<void> {
      for (let i = 0; i < 300 && !worker.stderr.join('').includes('worker started'); i++) await sleep(50);
      assert.ok(worker.stderr.join('').includes('worker started'), worker.stderr.join(''));
    }

    it('delivers every (event, endpoint) pair while workers are SIGKILLed and restarted', async () => {
      const endpoints: CreatedEndpoint[] = [
        await addEndpoint(app, admin, `${receiver.url}/a`),
        await addEndpoint(app, admin, `${receiver.url}/b`),
      ];
      const events: string[] = [];
      let producing = true;
      const producer = (async () => {
        while (producing) {
          events.push(await causeEvent(app, admin));
          await sleep(25);
        }
      })();

      // Two workers at a time (on SQLite: two processes sharing the file). Each round kills one
      // (or, last, both at once) with SIGKILL, whatever it was doing, and starts replacements.
      let pair = [startWorker(), startWorker()];
      await Promise.all(pair.map(started));
      const rounds: Array<'first' | 'second' | 'both'> = ['first', 'second', 'both'];
      for (const [round, victims] of rounds.entries()) {
        await sleep(300 + round * 250);
        const [a, b] = pair;
        assert.ok(a && b);
        const killed = victims === 'first' ? [a] : victims === 'second' ? [b] : [a, b];
        for (const worker of killed) worker.child.kill('SIGKILL');
        await Promise.all(killed.map((w) => w.exited));
        const replacements = killed.map(() => startWorker());
        pair = [...pair.filter((w) => !killed.includes(w)), ...replacements];
        await Promise.all(replacements.map(started));
      }
      producing = false;
      await producer;
      assert.ok(events.length > 30, `only ${events.length} events were made`);

      // Let the workers finish the queue (lapsed leases included).
      const { kysely } = app.services.db;
      const expected = events.length * endpoints.length;
      let pending = -1;
      for (let i = 0; i < 600; i++) {
        const rows = await kysely
          .selectFrom('webhook_deliveries')
          .select(['status'])
          .where('organization_id', '=', admin.organizationId)
          .execute();
        pending = rows.filter((r) => r.status !== 'succeeded').length;
        if (rows.length === expected && pending === 0) break;
        await sleep(100);
      }
      assert.equal(pending, 0, 'every delivery succeeded');

      const seen = new Set(receiver.requests.map((r) => `${r.path}|${r.headers['service-event-id']}`));
      const missing = events.flatMap((id) => ['/a', '/b'].filter((p) => !seen.has(`${p}|${id}`)));
      assert.deepEqual(missing, [], 'no (event, endpoint) pair lost');
      const deliveries = await kysely
        .selectFrom('webhook_deliveries')
        .select(['endpoint_id', 'event_id'])
        .where('organization_id', '=', admin.organizationId)
        .execute();
      assert.equal(deliveries.length, expected, 'one delivery per (event, endpoint)');

      for (const worker of [...running]) {
        worker.child.kill('SIGTERM');
        await worker.exited;
      }
      const text = logs.join('');
      assert.ok(text.includes('webhook attempt'), 'the workers logged their attempts');
      for (const endpoint of endpoints) {
        assert.equal(
          text.includes(endpoint.secret.slice('whsec_'.length)),
          false,
          'no secret in worker logs',
        );
      }
    });
  });
}
