import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MailConfigError } from '../../src/mail/errors.ts';
import { assertValidMailMessage, InvalidMailMessageError, type MailMessage } from '../../src/mail/message.ts';
import { DEFAULT_MAIL_FROM, resolveSender } from '../../src/mail/sender.ts';

const valid: MailMessage = { to: ['ana@example.com'], subject: 'Hello', text: 'Body' };

function refusedField(message: MailMessage): string {
  try {
    assertValidMailMessage(message);
  } catch (error) {
    assert.ok(error instanceof InvalidMailMessageError);
    return error.field;
  }
  assert.fail('message was accepted');
}

describe('assertValidMailMessage', () => {
  it('accepts a plain message with an attachment and a kind', () => {
    assertValidMailMessage({
      ...valid,
      to: ['ana@example.com', 'dev@localhost'],
      html: '<p>Body</p>',
      attachments: [{ filename: 'invoice-7.pdf', contentType: 'application/pdf', content: Buffer.from('x') }],
      tags: { kind: 'invoice.sent' },
    });
  });

  const refusals: [string, MailMessage, string][] = [
    ['no recipient', { ...valid, to: [] }, 'to'],
    ['an empty address', { ...valid, to: [''] }, 'to[0]'],
    ['an address without @', { ...valid, to: ['ana'] }, 'to[0]'],
    ['CRLF and a header after an address', { ...valid, to: ['a@example.com\r\nBcc: x@evil.test'] }, 'to[0]'],
    ['a bare LF in an address', { ...valid, to: ['ok@example.com', 'a@example.com\nb'] }, 'to[1]'],
    ['two recipients in one entry', { ...valid, to: ['a@example.com, b@evil.test'] }, 'to[0]'],
    ['a display name', { ...valid, to: ['Ana <a@example.com>'] }, 'to[0]'],
    ['an address over 320 characters', { ...valid, to: [`${'a'.repeat(320)}@example.com`] }, 'to[0]'],
    ['CRLF in the subject', { ...valid, subject: 'Hi\r\nBcc: x@evil.test' }, 'subject'],
    ['a bare CR in the subject', { ...valid, subject: 'Hi\rthere' }, 'subject'],
    ['a NUL in the subject', { ...valid, subject: 'Hi\u0000' }, 'subject'],
    ['a blank subject', { ...valid, subject: '  ' }, 'subject'],
    ['an empty text part', { ...valid, text: '' }, 'text'],
    [
      'CRLF in an attachment name',
      {
        ...valid,
        attachments: [{ filename: 'a\r\n.pdf', contentType: 'application/pdf', content: Buffer.alloc(0) }],
      },
      'attachments[0].filename',
    ],
    [
      'a path as attachment name',
      {
        ...valid,
        attachments: [{ filename: '../a.pdf', contentType: 'application/pdf', content: Buffer.alloc(0) }],
      },
      'attachments[0].filename',
    ],
    [
      'parameters in a content type',
      {
        ...valid,
        attachments: [{ filename: 'a.pdf', contentType: 'text/plain; name="x"', content: Buffer.alloc(0) }],
      },
      'attachments[0].contentType',
    ],
    ['a kind with spaces', { ...valid, tags: { kind: 'invoice sent' } }, 'tags.kind'],
  ];
  for (const [name, message, field] of refusals) {
    it(`refuses ${name}`, () => assert.equal(refusedField(message), field));
  }
});

describe('resolveSender', () => {
  it('defaults to the no-reply sender, also for a blank MAIL_FROM', () => {
    assert.equal(resolveSender(undefined), DEFAULT_MAIL_FROM);
    assert.equal(resolveSender('  '), 'Accounting <no-reply@localhost>');
  });

  it('accepts a bare address, a name and a quoted name with a comma', () => {
    assert.equal(resolveSender('billing@acme.test'), 'billing@acme.test');
    assert.equal(resolveSender('Acme Billing <billing@acme.test>'), 'Acme Billing <billing@acme.test>');
    assert.equal(resolveSender('"Acme, Inc." <billing@acme.test>'), '"Acme, Inc." <billing@acme.test>');
  });

  for (const from of [
    'Acme\r\nBcc: x@evil.test <a@acme.test>',
    'Acme, Inc. <a@acme.test>',
    'not an address',
  ]) {
    it(`refuses ${JSON.stringify(from)}`, () => assert.throws(() => resolveSender(from), MailConfigError));
  }
});
