import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { verifySignature } from '../../../src/webhooks/signature.ts';
import { type Json, pdfText } from '../../invoicing/ops-support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp.ts';
import { addEndpoint, deliverNow, deliveryRows, FAST_DELIVERY_ENV } from '../../support/webhook-delivery.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

/** The receiver's check, written from the contract alone: HMAC-SHA256 over "<t>.<raw body>". */
function receiverVerifies(header: string, body: string, secret: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(Buffer.from(match[2] ?? '', 'hex'), expected);
}

for (const dialect of DIALECTS) {
  describe(`invoice end to end: party, send by SMTP with PDF, two payments, invoice.paid webhook (${dialect})`, () => {
    let smtp: TestSmtpServer;
    let receiver: WebhookReceiver;
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      smtp = await startSmtpServer();
      receiver = await startWebhookReceiver();
      app = await startTestApp(dialect, { env: { ...FAST_DELIVERY_ENV, SMTP_URL: smtp.url } });
      admin = await createCaller(app);
    });
    after(async () => {
      await app.close();
      await receiver.close();
      await smtp.close();
    });

    it('delivers the invoice by mail and invoice.paid by a signed webhook', async () => {
      const endpoint = await addEndpoint(app, admin, `${receiver.url}/billing`, ['invoice.paid']);
      const ok = (res: Awaited<ReturnType<typeof call>>) => {
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.data as Json;
      };
      const party = ok(
        await call(
          app.baseUrl,
          'parties.create',
          {
            name: 'Café Zoë Ltd',
            email: 'ap@zoe.example',
            addressLines: ['12 Rue Principale'],
            country: 'CA',
          },
          { token: admin.token },
        ),
      );
      const draft = ok(
        await call(
          app.baseUrl,
          'invoices.create',
          {
            partyId: party.id,
            currency: 'CAD',
            lines: [
              { description: 'Design work', quantity: '10', unitAmountMinor: '12000', taxRate: '13' },
              { description: 'Hosting', quantity: '1', unitAmountMinor: '4999' },
            ],
            issueDate: '2026-01-15',
            paymentTermsDays: 30,
            scheduledSendDate: '2026-01-20',
          },
          { token: admin.token },
        ),
      );
      // 10 x 12000 = 120000 + 13% 15600 = 135600; + 4999 = 140599.
      assert.equal(draft.total_minor, '140599');
      const sent = ok(
        await call(
          app.baseUrl,
          'invoices.send',
          { id: draft.id, expectedRevision: 1 },
          { token: admin.token },
        ),
      );
      assert.equal(sent.number, 'INV-000001');

      const mail = await smtp.waitFor((m) => m.subject === 'Invoice INV-000001 from Test org');
      assert.deepEqual(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : [], [
        'ap@zoe.example',
      ]);
      assert.equal(mail.attachments.length, 1);
      const attachment = mail.attachments[0];
      assert.equal(attachment?.filename, 'invoice-INV-000001.pdf');
      assert.equal(attachment?.contentType, 'application/pdf');
      const pdf = attachment?.content ?? Buffer.alloc(0);
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
      const text = pdfText(pdf);
      if (text !== null) {
        for (const expected of ['INV-000001', 'Café Zoë Ltd', 'Design work', 'CAD 1,405.99', 'Balance due']) {
          assert.ok(text.includes(expected), `missing ${expected} in:\n${text}`);
        }
      }

      const first = ok(
        await call(
          app.baseUrl,
          'invoices.payments.record',
          {
            invoiceId: sent.id,
            expectedRevision: sent.revision,
            amountMinor: '40599',
            paidOn: '2026-01-15',
            method: 'card',
          },
          { token: admin.token },
        ),
      );
      const afterFirst = first.invoice as Json;
      assert.equal(afterFirst.balance_minor, '100000');
      await deliverNow(app);
      assert.equal(receiver.requests.length, 0, 'a partial payment does not make the invoice paid');
      const second = ok(
        await call(
          app.baseUrl,
          'invoices.payments.record',
          {
            invoiceId: sent.id,
            expectedRevision: afterFirst.revision,
            amountMinor: '100000',
            paidOn: '2026-01-15',
            method: 'bank_transfer',
            reference: 'WIRE 8812',
          },
          { token: admin.token },
        ),
      );
      assert.equal((second.invoice as Json).status, 'paid');

      await deliverNow(app);
      const request = await receiver.waitFor((r) => r.headers['service-event-type'] === 'invoice.paid');
      assert.equal(receiver.requests.length, 1);
      assert.equal(request.path, '/billing');
      const header = String(request.headers['service-signature']);
      const now = Math.floor(app.clock.now().getTime() / 1000);
      assert.equal(receiverVerifies(header, request.body, endpoint.secret), true);
      assert.equal(receiverVerifies(header, request.body, `${endpoint.secret}x`), false);
      assert.deepEqual(verifySignature({ payload: request.body, header, secret: endpoint.secret, now }), {
        ok: true,
        timestamp: now,
      });
      const envelope = JSON.parse(request.body) as Json;
      assert.deepEqual(Object.keys(envelope), ['id', 'type', 'created', 'organizationId', 'subject', 'data']);
      assert.equal(envelope.type, 'invoice.paid');
      assert.equal(envelope.id, request.headers['service-event-id']);
      assert.equal(envelope.created, now);
      assert.equal(envelope.organizationId, admin.organizationId);
      assert.deepEqual(envelope.subject, { type: 'invoice', id: sent.id });
      assert.deepEqual(envelope.data, {
        number: 'INV-000001',
        status: 'paid',
        partyId: party.id,
        currency: 'CAD',
        totalMinor: '140599',
        amountPaidMinor: '140599',
        balanceMinor: '0',
        issueDate: '2026-01-15',
        dueDate: '2026-02-14',
        scheduledSendDate: '2026-01-20',
      });
      const [delivery] = await deliveryRows(app, endpoint.id);
      assert.equal(delivery?.status, 'succeeded');
    });
  });
}
