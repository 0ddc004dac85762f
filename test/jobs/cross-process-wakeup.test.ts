import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { TestClock } from '../../src/lib/clock.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { BIN, childEnv } from '../support/processes.ts';
import { addEndpoint, causeEvent } from '../support/webhook-delivery.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// LISTEN/NOTIFY exists on PostgreSQL only; on SQLite a separate worker finds work by polling.
const dialects = DIALECTS.filter((d) => d === 'postgres');

for (const dialect of dialects) {
  describe(`a separate worker is woken by another process's commit (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let receiver: WebhookReceiver;
    let worker: ChildProcess | undefined;
    const stderr: string[] = [];

    before(async () => {
      // The API runs in this process without jobs; events get real timestamps for the worker.
      app = await startTestApp(dialect, { clock: new TestClock(new Date()) });
      admin = await createCaller(app);
      receiver = await startWebhookReceiver(() => ({ status: 200 }));
    });
    after(async () => {
      worker?.kill('SIGKILL');
      await receiver.close();
      await app.close();
    });

    it('delivers at once although the worker would not poll for ten minutes', async () => {
      const endpoint = await addEndpoint(app, admin, `${receiver.url}/hook`);
      worker = spawn(BIN, ['worker'], {
        env: childEnv({
          ...app.database.env,
          LOG_LEVEL: 'info',
          ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST: 'true',
          ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: 'any',
          // Without a notification the worker would look again only after this pause.
          ACCOUNTING_POLL_INTERVAL: '10m',
        }),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      worker.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
      for (let i = 0; i < 600 && !stderr.join('').includes('worker started'); i++) await sleep(50);
      assert.ok(stderr.join('').includes('worker started'), stderr.join(''));
      // The worker's first look (on start and once its LISTEN is up) finds nothing: let it go idle.
      await sleep(1500);
      assert.equal(receiver.requests.length, 0);

      const eventId = await causeEvent(app, admin);
      for (let i = 0; i < 400 && receiver.requests.length === 0; i++) await sleep(50);
      assert.equal(receiver.requests.length, 1, `not delivered; worker said: ${stderr.join('')}`);
      assert.equal(receiver.requests[0]?.headers['service-event-id'], eventId);
      assert.ok(endpoint.id);
    });
  });
}
