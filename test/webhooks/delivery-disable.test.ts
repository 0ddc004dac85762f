import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, setMemberStatus } from '../../src/admin/organizations.ts';
import { asBool, asJson } from '../../src/db/values.ts';
import { HOUR, MINUTE } from '../../src/lib/clock.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import {
  addEndpoint,
  causeEvent,
  deliverNow,
  deliveryRows,
  endpointRow,
  FAST_DELIVERY_ENV,
} from '../support/webhook-delivery.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

for (const dialect of DIALECTS) {
  describe(`webhook endpoint turn-off (${dialect})`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let receiver: WebhookReceiver;
    before(async () => {
      smtp = await startSmtpServer();
      receiver = await startWebhookReceiver({ status: 500 });
      // One attempt per event, so each event is exactly one failed attempt of the endpoint.
      app = await startTestApp(dialect, {
        env: { ...FAST_DELIVERY_ENV, ACCOUNTING_WEBHOOK_RETRY_SCHEDULE: '0', SMTP_URL: smtp.url },
      });
    });
    after(async () => {
      await app.close();
      await receiver.close();
      await smtp.close();
    });

    /** An organization with two active admins, a finance member and a suspended admin. */
    async function organization(): Promise<{ admin: Caller; adminEmails: string[]; others: string[] }> {
      const admin = await createCaller(app);
      const { kysely } = app.services.db;
      const tag = Math.random().toString(36).slice(2, 8);
      const second = await addMember(kysely, app.clock, {
        organizationId: admin.organizationId,
        email: `second-admin-${tag}@example.com`,
        role: 'admin',
      });
      const finance = await addMember(kysely, app.clock, {
        organizationId: admin.organizationId,
        email: `finance-${tag}@example.com`,
        role: 'finance',
      });
      const suspended = await addMember(kysely, app.clock, {
        organizationId: admin.organizationId,
        email: `suspended-admin-${tag}@example.com`,
        role: 'admin',
      });
      await setMemberStatus(kysely, app.clock, {
        organizationId: admin.organizationId,
        memberId: suspended.id,
        status: 'suspended',
      });
      const first = await kysely
        .selectFrom('members')
        .select('email')
        .where('id', '=', admin.memberId)
        .executeTakeFirstOrThrow();
      return {
        admin,
        adminEmails: [first.email, second.email].sort(),
        others: [finance.email, suspended.email],
      };
    }

    async function failures(admin: Caller, count: number): Promise<void> {
      for (let i = 0; i < count; i++) await causeEvent(app, admin);
      await deliverNow(app);
    }

    function mailTo(address: string) {
      return smtp.messages.filter((m) => m.to !== undefined && JSON.stringify(m.to).includes(address));
    }

    it('turns the endpoint off after exactly 20 failed attempts in a row and emails every active admin', async () => {
      const { admin, adminEmails, others } = await organization();
      const endpoint = await addEndpoint(app, admin, receiver.url);
      await failures(admin, 19);
      let row = await endpointRow(app, endpoint.id);
      assert.equal(row.failure_count, 19);
      assert.equal(row.status, 'active');
      assert.equal(asBool(row.active), true);
      for (const email of adminEmails) assert.equal(mailTo(email).length, 0);

      await failures(admin, 1);
      row = await endpointRow(app, endpoint.id);
      assert.equal(row.failure_count, 20);
      assert.equal(row.status, 'disabled');
      assert.equal(asBool(row.active), false);
      assert.equal(row.disabled_reason, 'consecutive_failures');
      assert.equal(row.disabled_at, app.clock.now().toISOString());
      assert.equal(row.revision, endpoint.revision + 1);

      const events = await app.services.db.kysely
        .selectFrom('events')
        .selectAll()
        .where('organization_id', '=', admin.organizationId)
        .where('type', '=', 'webhook.endpoint.disabled')
        .execute();
      assert.equal(events.length, 1);
      assert.equal(events[0]?.subject_id, endpoint.id);
      assert.deepEqual(asJson(events[0]?.data), {
        url: `${receiver.url}/`,
        reason: 'consecutive_failures',
        failureCount: 20,
      });

      for (const email of adminEmails) {
        const message = await smtp.waitFor((m) => JSON.stringify(m.to).includes(email));
        assert.equal(message.subject, 'Webhook endpoint turned off');
        assert.match(message.text ?? '', new RegExp(endpoint.id));
        assert.match(message.text ?? '', /20 delivery attempts in a row failed/);
        assert.doesNotMatch(message.text ?? '', /whsec_/);
        assert.equal(mailTo(email).length, 1, 'one message per admin');
      }
      for (const email of others) assert.equal(mailTo(email).length, 0);

      // Off means off: later events are not even queued for it.
      const before = receiver.requests.length;
      await causeEvent(app, admin);
      await deliverNow(app);
      assert.equal(receiver.requests.length, before);
      assert.equal((await deliveryRows(app, endpoint.id)).length, 20);
    });

    it('stays on while a success happened within the last day, and turns off once it is older', async () => {
      const { admin } = await organization();
      const local = await startWebhookReceiver((_req, index) =>
        index === 0 ? { status: 200 } : { status: 500 },
      );
      try {
        const endpoint = await addEndpoint(app, admin, local.url);
        await failures(admin, 1); // the success
        const successAt = app.clock.now().getTime();
        app.clock.advance(1 * HOUR);
        await failures(admin, 25);
        let row = await endpointRow(app, endpoint.id);
        assert.equal(row.failure_count, 25);
        assert.equal(row.status, 'active', 'a success 1 hour ago keeps it on');

        app.clock.set(new Date(successAt + 24 * HOUR - MINUTE));
        await failures(admin, 1);
        assert.equal((await endpointRow(app, endpoint.id)).status, 'active');

        app.clock.set(new Date(successAt + 24 * HOUR + MINUTE));
        await failures(admin, 1);
        row = await endpointRow(app, endpoint.id);
        assert.equal(row.status, 'disabled');
        assert.equal(row.failure_count, 27);
      } finally {
        await local.close();
      }
    });

    it('stops at once on 410 Gone: endpoint off, waiting deliveries cancelled, admins told', async () => {
      const { admin, adminEmails } = await organization();
      const local = await startWebhookReceiver((_req, index) =>
        index === 0 ? { status: 410, body: 'gone' } : { status: 200, delayMs: 200 },
      );
      try {
        const endpoint = await addEndpoint(app, admin, local.url);
        for (let i = 0; i < 4; i++) await causeEvent(app, admin);
        await deliverNow(app);
        const row = await endpointRow(app, endpoint.id);
        assert.equal(row.status, 'disabled');
        assert.equal(row.disabled_reason, 'gone');
        assert.equal(asBool(row.active), false);
        const deliveries = await deliveryRows(app, endpoint.id);
        const statuses = deliveries.map((d) => d.status).sort();
        assert.equal(statuses.filter((s) => s === 'failed').length, 1);
        assert.equal(deliveries.find((d) => d.status === 'failed')?.last_status_code, 410);
        assert.equal(statuses.filter((s) => s === 'cancelled').length, 3);
        // At most the two in flight (the per-endpoint cap) ever reached the receiver.
        assert.ok(local.requests.length <= 2, `${local.requests.length} requests`);
        for (const email of adminEmails) {
          const message = await smtp.waitFor(
            (m) => JSON.stringify(m.to).includes(email) && (m.text ?? '').includes('410 Gone'),
          );
          assert.match(message.text ?? '', new RegExp(endpoint.id));
        }
      } finally {
        await local.close();
      }
    });
  });
}
