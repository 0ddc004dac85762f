import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { addMember, createApiKey, createOrganization } from '../../src/admin/organizations.ts';
import { loadConfig } from '../../src/config.ts';
import { TestClock } from '../../src/lib/clock.ts';
import { buildServer } from '../../src/server.ts';
import { createServices, type Services } from '../../src/services.ts';
import { b64, PDF } from '../operations/mail/helpers.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.ts';
import { call } from '../support/http.ts';

/**
 * Mail content never appears in logs: the whole life of a letter (upload, a refused upload, list,
 * get, download, markRead, archive) runs with the logger at its most verbose level, and the log
 * text is searched for the sender, the subject and the bytes.
 */
for (const dialect of DIALECTS) {
  describe(`company mail and the logs (${dialect})`, () => {
    let database: TestDatabase;
    let services: Services;
    let server: Awaited<ReturnType<typeof buildServer>>;
    let baseUrl: string;
    let log = '';
    before(async () => {
      database = await createTestDatabase(dialect);
      const sink = new Writable({
        write(chunk, _encoding, done) {
          log += String(chunk);
          done();
        },
      });
      services = await createServices(
        loadConfig({ LOG_LEVEL: 'trace', ACCOUNTING_RATE_LIMIT: '100000/1m' }),
        {
          db: database.db,
          clock: new TestClock(),
          logger: pino({ level: 'trace' }, sink),
        },
      );
      server = await buildServer(services);
      baseUrl = await server.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      await server?.close();
      await database?.drop();
    });

    it('logs requests but never a sender, subject or file content', async () => {
      const { kysely } = services.db;
      const org = await createOrganization(kysely, services.clock, { name: 'Log org' });
      const member = await addMember(kysely, services.clock, {
        organizationId: org.id,
        email: 'l@example.com',
        role: 'admin',
      });
      const { token } = await createApiKey(kysely, services.clock, {
        organizationId: org.id,
        memberId: member.id,
        scopes: ['mail:read', 'mail:write'],
      });
      const sender = 'Sender-Lg4 Notary Office';
      const subject = 'Subject-Lg8 inheritance papers';
      const letter = { sender, subject, receivedAt: '2026-01-10T10:00:00.000Z' };
      const refused = await call(
        baseUrl,
        'mail.items.upload',
        { ...letter, files: [{ mediaType: 'image/png', contentBase64: b64(PDF) }] },
        { token },
      );
      assert.equal(refused.status, 400);
      const made = await call(
        baseUrl,
        'mail.items.upload',
        { ...letter, files: [{ mediaType: 'application/pdf', contentBase64: b64(PDF) }] },
        { token },
      );
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const id = String(made.data.id);
      for (const [name, input] of [
        ['mail.items.list', {}],
        ['mail.items.get', { id }],
        ['mail.items.download', { id }],
        ['mail.items.markRead', { id, expectedRevision: 1 }],
        ['mail.items.archive', { id, expectedRevision: 2 }],
      ] as const) {
        assert.equal((await call(baseUrl, name, input, { token })).status, 200, name);
      }
      assert.match(log, /mail\.items\.upload/, 'requests are logged at all');
      for (const secret of ['Sender-Lg4', 'Subject-Lg8', b64(PDF).slice(0, 12), '%PDF-1.7']) {
        assert.ok(!log.includes(secret), `the log contains ${secret}`);
      }
    });
  });
}
