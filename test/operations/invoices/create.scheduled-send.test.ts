import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sendScheduledDrafts } from '../../../src/invoicing/invoices/index.ts';
import { HOUR } from '../../../src/lib/clock.ts';
import { createInvoice, createParty, eventsOf, type Json } from '../../invoicing/ops-support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';

for (const dialect of DIALECTS) {
  describe(`scheduled sending of drafts (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      // Auckland is UTC+13 in January: its 2026-01-20 starts at 2026-01-19T11:00Z.
      await app.services.db.kysely
        .updateTable('organizations')
        .set({ time_zone: 'Pacific/Auckland' })
        .where('id', '=', admin.organizationId)
        .execute();
    });
    after(() => app.close());

    it("sends a draft on its scheduledSendDate in the organization's time zone, once", async () => {
      app.clock.set('2026-01-15T12:00:00Z');
      const party = await createParty(app, admin);
      const noEmail = await createParty(app, admin, { email: undefined });
      const draft = await createInvoice(app, admin, String(party.id), { scheduledSendDate: '2026-01-20' });
      const stuck = await createInvoice(app, admin, String(noEmail.id), { scheduledSendDate: '2026-01-20' });
      const manual = await createInvoice(app, admin, String(party.id));
      app.clock.set('2026-01-19T10:59:59Z');
      assert.equal(await sendScheduledDrafts(app.services), 0);
      app.clock.set('2026-01-19T11:00:00Z');
      // One sent, one refusal recorded (party without email); neither is tried again.
      assert.equal(await sendScheduledDrafts(app.services), 2);
      assert.equal(await sendScheduledDrafts(app.services), 0);
      app.clock.advance(24 * HOUR);
      assert.equal(await sendScheduledDrafts(app.services), 0);
      const get = async (id: unknown) =>
        (await call(app.baseUrl, 'invoices.get', { id }, { token: admin.token })).data;
      const sent = await get(draft.id);
      assert.equal(sent.status, 'sent');
      assert.equal(sent.number, 'INV-000001');
      assert.equal((await get(stuck.id)).status, 'draft');
      assert.equal((await get(manual.id)).status, 'draft');
      const audit = await app.services.db.kysely
        .selectFrom('audit_log')
        .select(['actor_type', 'actor_id'])
        .where('record_id', '=', String(draft.id))
        .where('after_revision', '=', 2)
        .executeTakeFirstOrThrow();
      assert.deepEqual(audit, { actor_type: 'system', actor_id: 'job:invoices.send_scheduled' });
      const types = (await eventsOf(app, String(draft.id))).map((e) => e.type);
      assert.deepEqual(types, ['invoice.created', 'invoice.sent']);
      const refused = (await eventsOf(app, String(stuck.id))).map((e) => e.type);
      assert.deepEqual(refused, ['invoice.created', 'invoice.scheduled_send_failed']);
    });

    const draftsOf = async (partyId: unknown, scheduledSendDate: string, count: number) => {
      const drafts: Json[] = [];
      for (let i = 0; i < count; i += 1) {
        drafts.push(await createInvoice(app, admin, String(partyId), { scheduledSendDate }));
      }
      return drafts;
    };
    const status = async (invoice: Json) =>
      (await call(app.baseUrl, 'invoices.get', { id: invoice.id }, { token: admin.token })).data.status;
    const failures = async (invoice: Json) =>
      (await eventsOf(app, String(invoice.id))).filter((e) => e.type === 'invoice.scheduled_send_failed');
    /** The job as the runner calls it: again at once while it did something. */
    const runUntilIdle = async (limit: number) => {
      let rounds = 0;
      while ((await sendScheduledDrafts(app.services, { limit })) > 0) rounds += 1;
      return rounds;
    };

    it('a refused draft is reported once and blocks neither later drafts nor later runs', async () => {
      app.clock.set('2026-01-25T00:00:00Z');
      const noEmail = await createParty(app, admin, { email: undefined });
      const party = await createParty(app, admin);
      // More refused drafts than one batch holds, all older than the good one.
      const stuck = await draftsOf(noEmail.id, '2026-01-26', 3);
      const [good] = await draftsOf(party.id, '2026-01-27', 1);
      app.clock.set('2026-01-27T00:00:00Z'); // 13:00 on Jan 27 in Auckland
      await runUntilIdle(2);
      assert.equal(await status(good ?? {}), 'sent');
      for (const draft of stuck) {
        assert.equal(await status(draft), 'draft');
        const [failure, ...more] = await failures(draft);
        assert.deepEqual(more, []);
        assert.deepEqual(failure?.data, {
          number: null,
          status: 'draft',
          partyId: noEmail.id,
          currency: 'CAD',
          totalMinor: '209248',
          amountPaidMinor: '0',
          balanceMinor: '209248',
          issueDate: '2026-01-10',
          dueDate: '2026-02-09',
          scheduledSendDate: '2026-01-26',
          errorCode: 'party_email_missing',
        });
      }
      // Later runs leave them alone: nothing handled, no new event.
      app.clock.advance(24 * HOUR);
      assert.equal(await sendScheduledDrafts(app.services, { limit: 2 }), 0);
      for (const draft of stuck) assert.equal((await failures(draft)).length, 1);
      // The admin and finance members are emailed once per refused draft.
      const mails = await app.services.db.kysely
        .selectFrom('mail_outbox')
        .select(['recipients', 'subject'])
        .where('organization_id', '=', admin.organizationId)
        .where('kind', '=', 'invoice.scheduled_send_failed')
        .where('subject', 'like', '%2026-01-26%')
        .execute();
      assert.equal(mails.length, 3);
      const staff = await app.services.db.kysely
        .selectFrom('members')
        .select('email')
        .where('organization_id', '=', admin.organizationId)
        .execute();
      const recipients = mails.map((m) =>
        typeof m.recipients === 'string' ? JSON.parse(m.recipients) : m.recipients,
      );
      assert.ok(recipients.every((to) => JSON.stringify(to) === JSON.stringify(staff.map((m) => m.email))));
    });

    it('a refused draft is tried again once its party or the draft itself changes', async () => {
      app.clock.set('2026-02-01T00:00:00Z');
      const noEmail = await createParty(app, admin, { email: undefined });
      const drafts = await draftsOf(noEmail.id, '2026-02-01', 2);
      await runUntilIdle(50);
      for (const draft of drafts) assert.equal((await failures(draft)).length, 1);
      // Changing the draft (still no email): tried again at the next run, refused and reported again.
      app.clock.advance(HOUR);
      const first = drafts[0] ?? {};
      const updated = await call(
        app.baseUrl,
        'invoices.update',
        { id: first.id, expectedRevision: first.revision, notes: 'PO 12' },
        { token: admin.token },
      );
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.equal(await sendScheduledDrafts(app.services), 1);
      assert.equal(await sendScheduledDrafts(app.services), 0);
      assert.equal((await failures(first)).length, 2);
      assert.equal((await failures(drafts[1] ?? {})).length, 1);
      // The party gets an email: both go out at the next run, without anyone touching the drafts.
      app.clock.advance(HOUR);
      const fixed = await call(
        app.baseUrl,
        'parties.update',
        { id: noEmail.id, expectedRevision: noEmail.revision, email: 'ap@fixed.example' },
        { token: admin.token },
      );
      assert.equal(fixed.status, 200, JSON.stringify(fixed.body));
      assert.equal(await sendScheduledDrafts(app.services), 2);
      for (const draft of drafts) assert.equal(await status(draft), 'sent');
    });

    it('a worker whose clock is behind the API reports a refusal once, not at every run', async () => {
      app.clock.set('2026-02-04T00:00:00Z');
      const noEmail = await createParty(app, admin, { email: undefined });
      const [draft] = await draftsOf(noEmail.id, '2026-02-05', 1);
      // The party changes on an API server whose clock is an hour ahead of the worker's.
      app.clock.set('2026-02-05T01:00:00Z');
      const renamed = await call(
        app.baseUrl,
        'parties.update',
        { id: noEmail.id, expectedRevision: noEmail.revision, name: 'Renamed, still no email' },
        { token: admin.token },
      );
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      app.clock.set('2026-02-05T00:00:00Z');
      assert.equal(await sendScheduledDrafts(app.services), 1);
      for (let run = 0; run < 3; run += 1) assert.equal(await sendScheduledDrafts(app.services), 0);
      assert.equal((await failures(draft ?? {})).length, 1);
    });
  });
}
