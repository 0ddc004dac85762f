import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { addMember, createApiKey, createOrganization } from '../../src/admin/organizations.ts';
import { loadConfig } from '../../src/config.ts';
import { ACCOUNTING_SCOPES } from '../../src/contract/access.ts';
import { webhookDeliveryJob } from '../../src/jobs/webhook-jobs.ts';
import { TestClock } from '../../src/lib/clock.ts';
import { buildServer } from '../../src/server.ts';
import { createServices, type Services } from '../../src/services.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { FAST_DELIVERY_ENV } from '../support/webhook-delivery.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

for (const dialect of DIALECTS) {
  describe(`webhook secrets stay secret while delivering (${dialect})`, () => {
    const logLines: string[] = [];
    let database: TestDatabase;
    let services: Services;
    let server: Awaited<ReturnType<typeof buildServer>>;
    let baseUrl: string;
    let token: string;
    let receiver: WebhookReceiver;
    before(async () => {
      database = await createTestDatabase(dialect);
      const config = loadConfig({
        ...FAST_DELIVERY_ENV,
        LOG_LEVEL: 'trace',
        ACCOUNTING_RATE_LIMIT: '100000/1m',
      });
      // Every log line of the server and the worker, at the most verbose level.
      const logger = pino({ level: 'trace' }, { write: (line: string) => logLines.push(line) });
      services = await createServices(config, { db: database.db, clock: new TestClock(), logger });
      server = await buildServer(services);
      baseUrl = await server.listen({ port: 0, host: '127.0.0.1' });
      const { kysely } = services.db;
      const org = await createOrganization(kysely, services.clock, { name: 'Secret org' });
      const member = await addMember(kysely, services.clock, {
        organizationId: org.id,
        email: 'admin@example.com',
        role: 'admin',
      });
      token = (
        await createApiKey(kysely, services.clock, {
          organizationId: org.id,
          memberId: member.id,
          scopes: ACCOUNTING_SCOPES,
        })
      ).token;
      receiver = await startWebhookReceiver((_req, index) =>
        index % 3 === 0 ? { status: 200 } : index % 3 === 1 ? { status: 500, body: 'no' } : { reset: true },
      );
    });
    after(async () => {
      await server.close();
      await database.drop();
      await receiver.close();
    });

    it('never writes a signing secret to a log, an attempt record, an event or a delivery-log answer', async () => {
      const created = await call(
        baseUrl,
        'webhooks.endpoints.create',
        { url: receiver.url, events: ['*'] },
        { token },
      );
      assert.equal(created.status, 200);
      const endpoint = created.data.endpoint as { id: string; revision: number };
      const secrets = [created.data.secret as string];
      const deliverAll = async () => {
        while ((await webhookDeliveryJob.run(services)) > 0);
      };
      const event = () =>
        call(
          baseUrl,
          'contractors.create',
          { displayName: 'A', legalName: 'A', email: `a${Math.random()}@example.com` },
          { token },
        );
      for (let i = 0; i < 3; i++) await event();
      await deliverAll();
      const rotated = await call(
        baseUrl,
        'webhooks.endpoints.rotateSecret',
        { id: endpoint.id, expectedRevision: endpoint.revision, idempotencyKey: 'rotate-secret-once' },
        { token },
      );
      assert.equal(rotated.status, 200);
      secrets.push(rotated.data.secret as string);
      for (let i = 0; i < 3; i++) await event();
      await deliverAll();
      assert.ok(receiver.requests.length >= 6);

      const list = await call(baseUrl, 'webhooks.deliveries.list', { limit: 100 }, { token });
      const items = list.data.items as Array<{ id: string }>;
      const answers = [JSON.stringify(list.body)];
      for (const item of items) {
        answers.push(
          JSON.stringify((await call(baseUrl, 'webhooks.deliveries.get', { id: item.id }, { token })).body),
        );
      }
      const { kysely } = services.db;
      const stored = JSON.stringify([
        await kysely.selectFrom('webhook_attempts').selectAll().execute(),
        await kysely.selectFrom('webhook_deliveries').selectAll().execute(),
        await kysely.selectFrom('events').selectAll().execute(),
        await kysely.selectFrom('webhook_endpoints').select(['secret_hint', 'url']).execute(),
      ]);
      const logs = logLines.join('');
      assert.ok(logs.includes('webhook attempt'), 'the worker did log its attempts');
      for (const secret of secrets) {
        const body = secret.slice('whsec_'.length);
        for (const [where, text] of [
          ['logs', logs],
          ['delivery-log answers', answers.join('\n')],
          ['stored rows', stored],
        ] as const) {
          assert.equal(text.includes(body), false, `secret found in ${where}`);
        }
        // Nor is the secret ever sent to the receiver: only signatures made with it.
        assert.equal(
          receiver.requests.some((r) => JSON.stringify(r).includes(body)),
          false,
        );
      }
    });
  });
}
