import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { InvalidMailMessageError, type MailMessage } from '../../src/mail/message.ts';
import { createOutboxMailer, type OutboxMeta } from '../../src/mail/outbox-mailer.ts';

/** A real pino logger writing JSON lines into an array, so the test reads what operators would. */
function capturedLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
  return { logger, lines };
}

const LINK = 'https://portal.example.com/invitations/accept?token=secret-token-123';

const invitation: MailMessage = {
  to: ['ana@example.com'],
  subject: 'Acme invited you to its contractor portal',
  text: `Accept the invitation:\n${LINK}\n`,
  html: `<p><a href="${LINK}">Accept the invitation</a></p>`,
  attachments: [{ filename: 'terms.txt', contentType: 'text/plain', content: Buffer.from('attached terms') }],
  tags: { kind: 'contractor.invitation' },
};

describe('createOutboxMailer', () => {
  it('hands the whole message and its sender to the store and returns the stored id', async () => {
    const stored: [MailMessage, OutboxMeta][] = [];
    const { logger } = capturedLogger();
    const mailer = createOutboxMailer({
      store: async (message, meta) => {
        stored.push([message, meta]);
        return 'mail-1';
      },
      logger,
      from: 'Acme <billing@acme.test>',
    });

    assert.deepEqual(await mailer.send(invitation), { transport: 'outbox', messageId: 'mail-1' });
    assert.deepEqual(stored, [
      [invitation, { from: 'Acme <billing@acme.test>', kind: 'contractor.invitation' }],
    ]);
  });

  it('logs one line with the subject and recipients, never the body, link or attachment', async () => {
    const { logger, lines } = capturedLogger();
    const mailer = createOutboxMailer({ store: async () => 'mail-2', logger });

    await mailer.send(invitation);

    assert.equal(lines.length, 1);
    const line = lines[0] ?? '';
    assert.equal(line.trimEnd().includes('\n'), false);
    const entry: unknown = JSON.parse(line);
    assert.ok(typeof entry === 'object' && entry !== null && 'mail' in entry);
    assert.deepEqual(entry.mail, {
      id: 'mail-2',
      kind: 'contractor.invitation',
      to: ['ana@example.com'],
      subject: 'Acme invited you to its contractor portal',
    });
    for (const secret of ['secret-token-123', 'Accept the invitation', 'attached terms', 'terms.txt']) {
      assert.equal(line.includes(secret), false, `log line contains ${secret}`);
    }
  });

  it('records the default sender and a null kind for an untagged message', async () => {
    const metas: OutboxMeta[] = [];
    const { logger } = capturedLogger();
    const mailer = createOutboxMailer({
      store: async (_message, meta) => {
        metas.push(meta);
        return 'mail-3';
      },
      logger,
    });
    await mailer.send({ to: ['ana@example.com'], subject: 'Hi', text: 'x' });
    assert.deepEqual(metas, [{ from: 'Accounting <no-reply@localhost>', kind: null }]);
  });

  it('stores nothing and logs nothing for an invalid message', async () => {
    let calls = 0;
    const { logger, lines } = capturedLogger();
    const mailer = createOutboxMailer({
      store: async () => {
        calls += 1;
        return 'never';
      },
      logger,
    });
    await assert.rejects(
      mailer.send({ ...invitation, subject: 'Hi\r\nBcc: spy@evil.test' }),
      InvalidMailMessageError,
    );
    assert.equal(calls, 0);
    assert.deepEqual(lines, []);
  });

  it('passes a failure of the store on, without claiming the mail was stored', async () => {
    const { logger, lines } = capturedLogger();
    const mailer = createOutboxMailer({
      store: async () => {
        throw new Error('database is locked');
      },
      logger,
    });
    await assert.rejects(mailer.send(invitation), /database is locked/);
    assert.deepEqual(lines, []);
  });
});
