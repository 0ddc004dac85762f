import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { createMailerFromEnv, MailConfigError, type OutboxMeta } from '../../src/mail/mailer.ts';
import type { MailMessage } from '../../src/mail/message.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';

const message: MailMessage = { to: ['ana@example.com'], subject: 'Which way?', text: 'x' };

function outboxDeps() {
  const stored: [MailMessage, OutboxMeta][] = [];
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
  const store = async (storedMessage: MailMessage, meta: OutboxMeta) => {
    stored.push([storedMessage, meta]);
    return `mail-${stored.length}`;
  };
  return { deps: { store, logger }, stored, lines };
}

describe('createMailerFromEnv', () => {
  let smtp: TestSmtpServer;
  before(async () => {
    smtp = await startSmtpServer();
  });
  after(() => smtp.close());

  it('delivers over SMTP with MAIL_FROM when SMTP_URL is set, and stores nothing', async () => {
    const { deps, stored, lines } = outboxDeps();
    const mailer = createMailerFromEnv({ SMTP_URL: smtp.url, MAIL_FROM: 'Acme <mail@acme.test>' }, deps);

    const result = await mailer.send(message);

    assert.equal(result.transport, 'smtp');
    const received = await smtp.waitFor((parsed) => parsed.messageId === result.messageId);
    assert.deepEqual(received.from?.value, [{ name: 'Acme', address: 'mail@acme.test' }]);
    assert.deepEqual(stored, []);
    assert.match(lines.join(''), /delivered over SMTP/);
    assert.equal(lines.join('').includes(smtp.url), false);
  });

  for (const env of [{}, { SMTP_URL: '' }, { SMTP_URL: '   ' }]) {
    it(`stores in the outbox when SMTP_URL is ${JSON.stringify(env.SMTP_URL)}`, async () => {
      const { deps, stored, lines } = outboxDeps();
      const mailer = createMailerFromEnv({ ...env, MAIL_FROM: 'Acme <mail@acme.test>' }, deps);

      assert.deepEqual(await mailer.send(message), { transport: 'outbox', messageId: 'mail-1' });
      assert.deepEqual(stored, [[message, { from: 'Acme <mail@acme.test>', kind: null }]]);
      assert.match(lines.join(''), /SMTP_URL is not set/);
    });
  }

  it('fails at startup, not per message, on an unusable MAIL_FROM or SMTP_URL', () => {
    const { deps } = outboxDeps();
    assert.throws(() => createMailerFromEnv({ MAIL_FROM: 'a\r\nBcc: b@evil.test' }, deps), MailConfigError);
    assert.throws(() => createMailerFromEnv({ SMTP_URL: 'mail.example.com:25' }, deps), MailConfigError);
  });
});
