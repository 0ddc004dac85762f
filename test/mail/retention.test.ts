import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { DAY, TestClock } from '../../src/lib/clock.ts';
import { createMailQueue } from '../../src/mail/outbox-queue.ts';
import { purgeOldMail } from '../../src/mail/retention.ts';
import { createSmtpMailer } from '../../src/mail/smtp-mailer.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';

const silent = pino({ level: 'silent' });

describe('ACCOUNTING_MAIL_RETENTION_DAYS', () => {
  it('defaults to 30 and accepts 1 to 3650 whole days', () => {
    assert.equal(loadConfig({}).mailRetentionDays, 30);
    assert.equal(loadConfig({ ACCOUNTING_MAIL_RETENTION_DAYS: '1' }).mailRetentionDays, 1);
    for (const bad of ['0', '3651', '7d', 'x']) {
      assert.throws(
        () => loadConfig({ ACCOUNTING_MAIL_RETENTION_DAYS: bad }),
        /ACCOUNTING_MAIL_RETENTION_DAYS/,
      );
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`mail outbox retention (${dialect})`, () => {
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

    const statuses = async () =>
      (
        await database.db.kysely
          .selectFrom('mail_outbox')
          .select(['subject', 'status'])
          .orderBy('subject')
          .execute()
      ).map((row) => `${row.subject}:${row.status}`);

    it('deletes sent and failed mail past the retention, never pending or kept mail', async () => {
      clock.set('2026-06-01T00:00:00Z');
      const smtpQueue = createMailQueue({
        db: database.db,
        clock,
        logger: silent,
        transport: createSmtpMailer({ url: smtp.url }),
      });
      const outbox = createMailQueue({ db: database.db, clock, logger: silent, transport: undefined });
      const pdf = {
        filename: 'invoice.pdf',
        contentType: 'application/pdf',
        content: Buffer.from('%PDF-1.4'),
      };
      await smtpQueue.enqueue(database.db.kysely, null, {
        to: ['a@example.com'],
        subject: 'old-sent',
        text: 'x',
        attachments: [pdf],
      });
      await smtpQueue.enqueue(database.db.kysely, null, {
        to: ['refused@example.com'],
        subject: 'old-failed',
        text: 'x',
      });
      assert.ok((await smtpQueue.dispatchPending()) >= 1);
      await outbox.enqueue(database.db.kysely, null, {
        to: ['k@example.com'],
        subject: 'old-kept',
        text: 'x',
      });
      assert.equal(await outbox.dispatchPending(), 1);
      // Waiting for a retry far ahead (SMTP was down, say): stays whatever its age.
      const pending = await smtpQueue.enqueue(database.db.kysely, null, {
        to: ['p@example.com'],
        subject: 'old-pending',
        text: 'x',
      });
      await database.db.kysely
        .updateTable('mail_outbox')
        .set({ next_attempt_at: '2027-01-01T00:00:00.000Z' })
        .where('id', '=', pending)
        .execute();
      assert.deepEqual(await statuses(), [
        'old-failed:failed',
        'old-kept:kept',
        'old-pending:pending',
        'old-sent:sent',
      ]);

      clock.advance(29 * DAY);
      await smtpQueue.enqueue(database.db.kysely, null, {
        to: ['b@example.com'],
        subject: 'young-sent',
        text: 'x',
      });
      await smtpQueue.dispatchPending();
      assert.equal(await purgeOldMail(database.db.kysely, clock.now(), 30), 0);
      clock.advance(2 * DAY);
      assert.equal(await purgeOldMail(database.db.kysely, clock.now(), 30), 2);
      assert.deepEqual(await statuses(), ['old-kept:kept', 'old-pending:pending', 'young-sent:sent']);
    });
  });
}
