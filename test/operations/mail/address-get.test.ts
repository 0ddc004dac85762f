import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodemailer from 'nodemailer';
import { type InboundListener, startInboundListener } from '../../../src/inbound/listener.ts';
import { createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { mailCaller, op, PDF, storedEvents } from './helpers.ts';

/**
 * The company mail address: distinct from the receipts inbox address, issued on first use,
 * rotated with a revision; a message sent to it over real SMTP (nodemailer -> the listener)
 * becomes a letter of channel `email`, from any sender.
 */

const DOMAIN = 'inbound.localhost';

for (const dialect of DIALECTS) {
  describe(`mail.address.get, mail.address.rotate and SMTP intake (${dialect})`, () => {
    let app: TestApp;
    let listener: InboundListener;
    before(async () => {
      app = await startTestApp(dialect, { env: { ACCOUNTING_INBOUND_DOMAIN: DOMAIN } });
      listener = await startInboundListener(app.services, app.services.inbound, {
        port: 0,
        host: '127.0.0.1',
        domain: DOMAIN,
        maxMessageBytes: 2 * 1024 * 1024,
      });
    });
    after(async () => {
      await listener?.close();
      await app?.close();
    });

    const send = (to: string, extra: Record<string, unknown> = {}) =>
      nodemailer
        .createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true })
        .sendMail({
          from: 'billing@utility.example',
          to,
          subject: 'Your invoice',
          text: 'Attached.',
          ...extra,
        });

    it('a message from an outside sender becomes an email letter with the message and its attachments', async () => {
      const caller = await createCaller(app, { scopes: ['mail:read', 'mail:write', 'accounting:read'] });
      const mail = await op(app, caller, 'mail.address.get');
      assert.equal(mail.status, 200, JSON.stringify(mail.body));
      const inbox = await op(app, caller, 'inbox.address.get');
      assert.equal(inbox.status, 200, JSON.stringify(inbox.body));
      assert.notEqual(mail.data.address, inbox.data.address);
      assert.match(String(mail.data.address), /^company-mail-[a-z0-9]+@inbound\.localhost$/);
      await send(String(mail.data.address), {
        attachments: [{ filename: 'invoice.pdf', content: PDF, contentType: 'application/pdf' }],
      });
      const list = await op(app, caller, 'mail.items.list');
      const items = list.data.items as Array<Record<string, unknown>>;
      assert.equal(items.length, 1);
      const [letter] = items;
      assert.deepEqual(
        [letter?.channel, letter?.sender, letter?.subject, letter?.received_at],
        ['email', 'billing@utility.example', 'Your invoice', app.clock.now().toISOString()],
      );
      const files = letter?.files as Array<Record<string, unknown>>;
      assert.deepEqual(
        files.map((file) => [file.position, file.media_type, file.file_name]),
        [
          [1, 'message/rfc822', 'message.eml'],
          [2, 'application/pdf', 'invoice.pdf'],
        ],
      );
      const attachment = await op(app, caller, 'mail.items.download', { id: letter?.id, file: 2 });
      assert.deepEqual(Buffer.from(String(attachment.data.content_base64), 'base64'), PDF);
      const eml = await op(app, caller, 'mail.items.download', { id: letter?.id, file: 1 });
      assert.match(
        Buffer.from(String(eml.data.content_base64), 'base64').toString(),
        /Subject: Your invoice/,
      );
      const events = await storedEvents(app, caller.organizationId);
      assert.deepEqual(
        events.map((e) => [e.type, e.data.channel, e.data.fileCount]),
        [['mail.received', 'email', 2]],
      );
      // Nothing reached the receipt inbox: the two addresses are distinct routes.
      const receipts = await app.services.db.kysely
        .selectFrom('receipts')
        .select('id')
        .where('organization_id', '=', caller.organizationId)
        .execute();
      assert.deepEqual(receipts, []);
      const counted = await op(app, caller, 'mail.address.get');
      assert.equal(counted.data.accepted_messages, 1);
    });

    it('rotating stops the old address at once; a stale revision is refused', async () => {
      const caller = await mailCaller(app);
      const old = await op(app, caller, 'mail.address.get');
      assertError(
        await op(app, caller, 'mail.address.rotate', { expectedRevision: 9 }),
        409,
        'revision_conflict',
      );
      const rotated = await op(app, caller, 'mail.address.rotate', { expectedRevision: old.data.revision });
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      assert.notEqual(rotated.data.address, old.data.address);
      await assert.rejects(send(String(old.data.address)));
      await send(String(rotated.data.address));
      const items = (await op(app, caller, 'mail.items.list')).data.items as unknown[];
      assert.equal(items.length, 1);
    });
  });
}
