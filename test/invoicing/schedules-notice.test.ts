import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setMemberStatus } from '../../src/admin/organizations.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { createParty } from './ops-support.ts';
import { createSchedule, eventTypes, everyDay, mailsOf, transition } from './schedules-support.ts';

it('reads the schedule settings: defaults 3, 31 and 3 days; anything but 0-365 days is refused', () => {
  assert.deepEqual(loadConfig({}).schedules, { noticeDays: 3, catchUpDays: 31, dueSoonDays: 3 });
  const set = loadConfig({
    ACCOUNTING_SCHEDULE_NOTICE_DAYS: '7',
    ACCOUNTING_SCHEDULE_CATCHUP_DAYS: '0',
    ACCOUNTING_DUE_SOON_DAYS: '14',
  });
  assert.deepEqual(set.schedules, { noticeDays: 7, catchUpDays: 0, dueSoonDays: 14 });
  for (const bad of ['-1', '1.5', '3d', '366', 'soon']) {
    assert.throws(() => loadConfig({ ACCOUNTING_SCHEDULE_NOTICE_DAYS: bad }), ConfigError, bad);
  }
});

for (const dialect of DIALECTS) {
  describe(`notice before each recurring invoice (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let finance: Caller;
    before(async () => {
      app = await startTestApp(dialect, { env: { ACCOUNTING_SCHEDULE_NOTICE_DAYS: '5' } });
      admin = await createCaller(app);
      finance = await createCaller(app, { role: 'finance', organizationId: admin.organizationId });
      const suspended = await createCaller(app, { organizationId: admin.organizationId });
      await setMemberStatus(app.services.db.kysely, app.clock, {
        organizationId: admin.organizationId,
        memberId: suspended.memberId,
        status: 'suspended',
      });
      await app.services.db.kysely
        .updateTable('organizations')
        .set({ name: 'Acme Books' })
        .where('id', '=', admin.organizationId)
        .execute();
    });
    after(() => app.close());

    it('tells admins and finance members N days before each run, once, and never while paused', async () => {
      app.clock.set('2041-01-01T12:00:00Z');
      const party = await createParty(app, admin, { name: 'Globex' });
      const made = await createSchedule(app, admin, party.id, {
        name: 'Globex retainer',
        cadence: { kind: 'monthly', dayOfMonth: 10 },
        startDate: '2041-01-01',
        autoSend: true,
      });
      await everyDay(app, '2041-01-01', '2041-03-20');
      const notices = async () =>
        (await eventTypes(app, admin.organizationId, 'invoice.schedule.upcoming')).filter(
          (e) => e.subjectId === made.id,
        );
      const first = await notices();
      assert.deepEqual(
        first.map((e) => e.data.runDate),
        ['2041-01-10', '2041-02-10', '2041-03-10'],
      );
      assert.equal(first[0]?.data.amountMinor, '113000');
      assert.equal(first[0]?.data.autoSend, true);
      const sentOn = await app.services.db.kysely
        .selectFrom('invoicing_notices')
        .select('created_at')
        .where('target_id', '=', String(made.id))
        .orderBy('created_at')
        .execute();
      assert.deepEqual(
        sentOn.map((row) => new Date(String(row.created_at)).toISOString().slice(0, 10)),
        ['2041-01-05', '2041-02-05', '2041-03-05'],
      );
      const mails = await mailsOf(app, admin.organizationId, 'invoice.schedule_upcoming');
      assert.equal(mails.length, 3);
      const [mail] = mails;
      const staff = await app.services.db.kysely
        .selectFrom('members')
        .select('email')
        .where('id', 'in', [admin.memberId, finance.memberId])
        .orderBy('email')
        .execute();
      assert.deepEqual(
        mail?.to.slice().sort(),
        staff.map((m) => m.email),
      );
      assert.match(
        String(mail?.subject),
        /Acme Books: the recurring invoice "Globex retainer" sends its next invoice on 2041-01-10/,
      );
      assert.match(String(mail?.text), /CAD 1,130\.00/);

      await transition(app, admin, 'pause', made.id);
      await everyDay(app, '2041-03-21', '2041-05-20');
      assert.equal((await notices()).length, 3);
      await transition(app, admin, 'resume', made.id);
      await everyDay(app, '2041-05-20', '2041-06-10');
      assert.deepEqual(
        (await notices()).map((e) => e.data.runDate),
        ['2041-01-10', '2041-02-10', '2041-03-10', '2041-06-10'],
      );
      await transition(app, admin, 'cancel', made.id);
    });
  });
}
