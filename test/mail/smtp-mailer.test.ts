import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { MailConfigError, MailDeliveryError } from '../../src/mail/errors.ts';
import { InvalidMailMessageError } from '../../src/mail/message.ts';
import { createSmtpMailer } from '../../src/mail/smtp-mailer.ts';
import { invoiceSent } from '../../src/mail/templates/index.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';

// Every byte value, so a transfer encoding that loses or alters bytes cannot pass.
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]);

async function deliveryFailure(promise: Promise<unknown>): Promise<MailDeliveryError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof MailDeliveryError, `expected MailDeliveryError, got ${String(error)}`);
    return error;
  }
  assert.fail('send resolved');
}

describe('createSmtpMailer against a real SMTP server', () => {
  let smtp: TestSmtpServer;
  before(async () => {
    smtp = await startSmtpServer({ refuseRecipient: (address) => address.endsWith('@refused.test') });
  });
  after(() => smtp.close());

  it('delivers recipients, subject, both parts and the attachment byte for byte', async () => {
    const mailer = createSmtpMailer({ url: smtp.url });
    const result = await mailer.send({
      to: ['ana@example.com', 'ben@example.com'],
      subject: 'Invoice 7 — Müller & Co',
      text: 'Please find invoice 7 attached.\n',
      html: '<p>Please find invoice 7 attached.</p>',
      attachments: [{ filename: 'invoice-7.pdf', contentType: 'application/pdf', content: PDF }],
    });

    assert.equal(result.transport, 'smtp');
    const received = await smtp.waitFor((message) => message.messageId === result.messageId);
    const to = Array.isArray(received.to) ? received.to : [received.to];
    assert.deepEqual(
      to.flatMap((list) => list?.value.map((address) => address.address) ?? []),
      ['ana@example.com', 'ben@example.com'],
    );
    assert.deepEqual(received.from?.value, [{ name: 'Accounting', address: 'no-reply@localhost' }]);
    assert.equal(received.subject, 'Invoice 7 — Müller & Co');
    assert.equal(received.text, 'Please find invoice 7 attached.\n');
    assert.equal(received.html, '<p>Please find invoice 7 attached.</p>');
    assert.equal(received.attachments.length, 1);
    const [attachment] = received.attachments;
    assert.equal(attachment?.filename, 'invoice-7.pdf');
    assert.equal(attachment?.contentType, 'application/pdf');
    assert.ok(attachment?.content.equals(PDF), 'attachment bytes differ');
  });

  it('delivers a rendered template: subject, escaped HTML and the invoice PDF', async () => {
    const mailer = createSmtpMailer({ url: smtp.url });
    const mail = invoiceSent({
      organizationName: 'Müller & Söhne',
      partyName: 'Beta <Ltd>',
      number: 'INV-7',
      totalFormatted: '€10.00',
      dueDate: '2026-12-15',
      pdf: PDF,
    });
    const { messageId } = await mailer.send({ to: ['ana@example.com'], ...mail });
    const received = await smtp.waitFor((message) => message.messageId === messageId);
    assert.equal(received.subject, 'Invoice INV-7 from Müller & Söhne');
    assert.ok(received.html !== false && received.html.includes('Hello Beta &lt;Ltd&gt;,'));
    assert.equal(received.text, mail.text);
    assert.equal(received.attachments[0]?.filename, 'invoice-INV-7.pdf');
    assert.ok(received.attachments[0]?.content.equals(PDF), 'attachment bytes differ');
  });

  it('sends from the configured sender', async () => {
    const mailer = createSmtpMailer({ url: smtp.url, from: 'Acme Billing <billing@acme.test>' });
    const { messageId } = await mailer.send({ to: ['ana@example.com'], subject: 'From', text: 'x' });
    const received = await smtp.waitFor((message) => message.messageId === messageId);
    assert.deepEqual(received.from?.value, [{ name: 'Acme Billing', address: 'billing@acme.test' }]);
  });

  it('refuses header injection before connecting: nothing reaches the server', async () => {
    const mailer = createSmtpMailer({ url: smtp.url });
    const before = smtp.messages.length;
    await assert.rejects(
      mailer.send({ to: ['ana@example.com'], subject: 'Hi\r\nBcc: spy@evil.test', text: 'x' }),
      InvalidMailMessageError,
    );
    await assert.rejects(
      mailer.send({ to: ['ana@example.com\r\nBcc: spy@evil.test'], subject: 'Hi', text: 'x' }),
      InvalidMailMessageError,
    );
    assert.equal(smtp.messages.length, before);
  });

  it('marks a refused recipient as permanent, so it is not retried', async () => {
    const mailer = createSmtpMailer({ url: smtp.url });
    const error = await deliveryFailure(
      mailer.send({ to: ['nobody@refused.test'], subject: 'Hi', text: 'x' }),
    );
    assert.equal(error.code, 'EENVELOPE');
    assert.equal(error.permanent, true);
  });

  it('resolves when only some recipients are refused: sending again would duplicate it', async () => {
    const mailer = createSmtpMailer({ url: smtp.url });
    const { messageId } = await mailer.send({
      to: ['ana@example.com', 'nobody@refused.test'],
      subject: 'Partly',
      text: 'x',
    });
    await smtp.waitFor((message) => message.messageId === messageId);
  });
});

describe('createSmtpMailer when delivery cannot happen', () => {
  it('rejects with a clear, retryable error when the SMTP server is down', async () => {
    const smtp = await startSmtpServer();
    await smtp.close();
    const mailer = createSmtpMailer({ url: smtp.url });

    const error = await deliveryFailure(mailer.send({ to: ['ana@example.com'], subject: 'Hi', text: 'x' }));
    assert.match(error.message, /^SMTP delivery failed \(\w+\): .*ECONNREFUSED.*; the message was not sent$/);
    assert.equal(error.permanent, false);
  });

  it('gives up on a server that accepts the connection but never greets', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    assert.ok(address !== null && typeof address === 'object');
    try {
      // The URL's query overrides the default timeouts, which would make this test wait 10 s.
      const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${address.port}?greetingTimeout=200` });
      const started = Date.now();
      const error = await deliveryFailure(mailer.send({ to: ['ana@example.com'], subject: 'Hi', text: 'x' }));
      assert.equal(error.code, 'ETIMEDOUT');
      assert.equal(error.permanent, false);
      assert.ok(Date.now() - started < 5_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('refuses an unusable SMTP_URL at creation without echoing its password', () => {
    for (const url of ['not a url', 'http://user:s3cret@mail.example.com', 'smtp://user:s3cret@']) {
      assert.throws(
        () => createSmtpMailer({ url }),
        (error: unknown) => error instanceof MailConfigError && !error.message.includes('s3cret'),
      );
    }
  });
});
