import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { TestClock } from '../../src/lib/clock.ts';
import { createMailQueue } from '../../src/mail/outbox-queue.ts';
import { createSmtpMailer } from '../../src/mail/smtp-mailer.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';

const silent = pino({ level: 'silent' });

for (const dialect of DIALECTS) {
  describe(`mail outbox queue (${dialect})`, () => {
    let database: TestDatabase;
    let smtp: TestSmtpServer;
    const clock = new TestClock();
    before(async () => {
      database = await createTestDatabase(dialect);
      smtp = await startSmtpServer({ refuseRecipient: (address) => address.startsWith('refused') });
    });
    after(async () => {
      await smtp.close();
      await database.drop();
    });

    async function statusOf(id: string) {
      return database.db.kysely
        .selectFrom('mail_outbox')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    }

    it('sends queued mail over SMTP exactly once, even with two dispatchers racing', async () => {
      const transport = createSmtpMailer({ url: smtp.url });
      const queue = createMailQueue({ db: database.db, clock, logger: silent, transport });
      const attachment = Buffer.from('%PDF-1.4 test');
      const id = await queue.enqueue(database.db.kysely, null, {
        to: ['once@example.com'],
        subject: 'Exactly once',
        text: 'hello',
        attachments: [{ filename: 'a.pdf', contentType: 'application/pdf', content: attachment }],
      });
      const [a, b] = await Promise.all([queue.dispatchPending(), queue.dispatchPending()]);
      assert.equal(a + b, 1);
      const received = await smtp.waitFor((m) => m.subject === 'Exactly once');
      assert.deepEqual(received.attachments[0]?.content, attachment);
      assert.equal(smtp.messages.filter((m) => m.subject === 'Exactly once').length, 1);
      assert.equal((await statusOf(id)).status, 'sent');
    });

    it('keeps mail in the outbox when no SMTP server is configured', async () => {
      const queue = createMailQueue({ db: database.db, clock, logger: silent, transport: undefined });
      const id = await queue.enqueue(database.db.kysely, null, {
        to: ['kept@example.com'],
        subject: 'Kept',
        text: 'x',
      });
      assert.equal(await queue.dispatchPending(), 1);
      const row = await statusOf(id);
      assert.equal(row.status, 'kept');
      assert.equal(row.text_body, 'x');
    });

    it('stops at once on a permanent refusal and retries later on a transient failure', async () => {
      const transport = createSmtpMailer({ url: smtp.url });
      const queue = createMailQueue({ db: database.db, clock, logger: silent, transport });
      const refused = await queue.enqueue(database.db.kysely, null, {
        to: ['refused@example.com'],
        subject: 'No',
        text: 'x',
      });
      await queue.dispatchPending();
      assert.equal((await statusOf(refused)).status, 'failed');

      const down = createMailQueue({
        db: database.db,
        clock,
        logger: silent,
        transport: createSmtpMailer({ url: 'smtp://127.0.0.1:9' }),
      });
      const later = await down.enqueue(database.db.kysely, null, {
        to: ['later@example.com'],
        subject: 'Later',
        text: 'x',
      });
      await down.dispatchPending();
      const pending = await statusOf(later);
      assert.equal(pending.status, 'pending');
      assert.equal(pending.attempts, 1);
      assert.equal(await queue.dispatchPending(), 0, 'not due before its backoff');
      clock.advance(61_000);
      await queue.dispatchPending();
      assert.equal((await statusOf(later)).status, 'sent');
    });

    it('refuses a message with a header injection when it is queued', async () => {
      const queue = createMailQueue({ db: database.db, clock, logger: silent, transport: undefined });
      await assert.rejects(
        queue.enqueue(database.db.kysely, null, {
          to: ['a@example.com'],
          subject: 'x\r\nBcc: b@evil.test',
          text: 'x',
        }),
      );
    });
  });
}
