import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { ensureInboundAddress, formatAddress, inboundCounts } from '../../src/inbound/addresses.ts';
import { type InboundListener, startInboundListener } from '../../src/inbound/listener.ts';
import { messageBytesFor } from '../../src/inbound/router.ts';
import { MAX_RECEIPT_BYTES } from '../../src/receipts/inbox/intake.ts';
import { einvoiceFixture } from '../receipts/extraction/einvoice-fixtures.ts';
import { createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';

// E-mail intake over real SMTP: nodemailer sends to the listener on a loopback port.

const DOMAIN = 'inbound.localhost';

for (const dialect of DIALECTS) {
  describe(`inbound SMTP listener (${dialect})`, () => {
    let app: TestApp;
    let listener: InboundListener;
    let organizationId: string;
    let memberEmail: string;
    let address: string;
    before(async () => {
      app = await startTestApp(dialect);
      const caller = await createCaller(app);
      organizationId = caller.organizationId;
      const member = await app.services.db.kysely
        .selectFrom('members')
        .select('email')
        .where('id', '=', caller.memberId)
        .executeTakeFirstOrThrow();
      memberEmail = member.email;
      const row = await ensureInboundAddress(
        app.services.db.kysely,
        organizationId,
        'receipts',
        new Date().toISOString(),
      );
      address = formatAddress(row.local_part, DOMAIN);
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

    const send = (message: SendMailOptions) =>
      nodemailer
        .createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true })
        .sendMail(message);
    const receiptCount = async () =>
      Number(
        (
          await app.services.db.kysely
            .selectFrom('receipts')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('organization_id', '=', organizationId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('turns each attachment of a member’s message into an inbox item and wakes the readers', async () => {
      const ubl = einvoiceFixture('ubl-invoice.xml');
      const cii = einvoiceFixture('cii-invoice.xml');
      // Enqueueing the extraction jobs wakes the books workers after the commit, once per message.
      let wakeups = 0;
      const stopListening = app.services.wakeups.on('books', () => {
        wakeups += 1;
      });
      await send({
        from: memberEmail,
        to: address,
        subject: 'Receipts',
        text: 'two invoices',
        attachments: [
          { filename: 'invoice.xml', content: ubl, contentType: 'application/xml' },
          { filename: 'other.xml', content: cii, contentType: 'application/xml' },
        ],
      });
      const rows = await app.services.db.kysely
        .selectFrom('receipts')
        .select(['file_name', 'source', 'state', 'received_by'])
        .where('organization_id', '=', organizationId)
        .orderBy('file_name')
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.file_name, r.source, r.state]),
        [
          ['invoice.xml', 'email', 'new'],
          ['other.xml', 'email', 'new'],
        ],
      );
      assert.deepEqual(await inboundCounts(app.services.db.kysely, organizationId, 'receipts'), {
        accepted: 1,
        refused: 0,
      });
      stopListening();
      assert.equal(wakeups, 1, 'one wake-up for the message, not one per attachment and not none');
    });

    it('refuses and counts mail from someone who is not a member, adding nothing', async () => {
      const before = await receiptCount();
      await assert.rejects(
        send({
          from: 'stranger@example.org',
          to: address,
          subject: 'hi',
          attachments: [{ filename: 'a.xml', content: einvoiceFixture('ubl-invoice.xml') }],
        }),
        /550.*sender_not_member/,
      );
      assert.equal(await receiptCount(), before);
      assert.deepEqual(await inboundCounts(app.services.db.kysely, organizationId, 'receipts'), {
        accepted: 1,
        refused: 1,
      });
    });

    it('refuses a member’s message whose attachments are not receipt files', async () => {
      await assert.rejects(
        send({
          from: memberEmail,
          to: address,
          attachments: [{ filename: 'notes.pdf', content: Buffer.from('not a pdf at all') }],
        }),
        /550.*no_receipt_attachments/,
      );
      assert.equal((await inboundCounts(app.services.db.kysely, organizationId, 'receipts')).refused, 2);
    });

    it('refuses unknown recipients and messages over the size limit', async () => {
      await assert.rejects(send({ from: memberEmail, to: `receipts-nobody@${DOMAIN}`, text: 'x' }), /550/);
      await assert.rejects(
        send({ from: memberEmail, to: `${address.split('@')[0]}@elsewhere.example`, text: 'x' }),
        /550/,
      );
      await assert.rejects(
        send({
          from: memberEmail,
          to: address,
          attachments: [{ filename: 'big.pdf', content: Buffer.alloc(3 * 1024 * 1024, 65) }],
        }),
        /552/,
      );
    });

    it('announces SIZE no larger than a store keeps, and refuses at DATA what the mailbox would refuse', async () => {
      // Configured far above the stores: the listener still announces and enforces their limits.
      const wide = await startInboundListener(app.services, app.services.inbound, {
        port: 0,
        host: '127.0.0.1',
        domain: DOMAIN,
        maxMessageBytes: 100 * 1024 * 1024,
      });
      try {
        const ehlo = await new Promise<string>((resolve, reject) => {
          const socket = connect(wide.port, '127.0.0.1');
          let text = '';
          socket.on('data', (d) => {
            text += d.toString();
            if (text.startsWith('220') && !text.includes('EHLO-SENT')) {
              text += 'EHLO-SENT';
              socket.write('EHLO test.example\r\n');
            }
            if (/\r\n250 [^\r]*\r\n$/.test(text)) {
              socket.end('QUIT\r\n');
              resolve(text);
            }
          });
          socket.on('error', reject);
        });
        const size = Number(/250[- ]SIZE (\d+)/.exec(ehlo)?.[1]);
        assert.ok(size > 0 && size < 30 * 1024 * 1024, ehlo);
        const before = await inboundCounts(app.services.db.kysely, organizationId, 'receipts');
        await assert.rejects(
          nodemailer
            .createTransport({ host: '127.0.0.1', port: wide.port, secure: false, ignoreTLS: true })
            .sendMail({
              from: memberEmail,
              to: address,
              attachments: [
                { filename: 'big.pdf', content: Buffer.alloc(MAX_RECEIPT_BYTES + 1024 * 1024, 65) },
              ],
            }),
          new RegExp(`552.*${messageBytesFor(MAX_RECEIPT_BYTES)}`),
        );
        // Refused before anything was read into a delivery: no log row, nothing stored.
        assert.deepEqual(await inboundCounts(app.services.db.kysely, organizationId, 'receipts'), before);
      } finally {
        await wide.close();
      }
    });
  });
}
