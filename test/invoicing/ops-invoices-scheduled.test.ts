import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sendScheduledDrafts } from '../../src/invoicing/service/index.ts';
import { HOUR } from '../../src/lib/clock.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';
import { createInvoice, createParty, eventsOf } from './ops-support.ts';

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
      assert.equal(await sendScheduledDrafts(app.services), 1);
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
    });
  });
}
