import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nextInvoiceNumber } from '../../../src/invoicing/invoices/numbering.ts';
import { withUnit } from '../../../src/unit/with-unit.ts';
import { createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { auditRows, op } from './helpers.ts';

for (const dialect of DIALECTS) {
  describe(`admin.organization.get and update (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app.close());

    it('reads the defaults of a new organization', async () => {
      const admin = await createCaller(app);
      const res = await op(app, admin, 'admin.organization.get', {}, { method: 'GET' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.data, {
        id: admin.organizationId,
        name: 'Test org',
        legal_name: null,
        address: null,
        time_zone: 'UTC',
        default_currency: null,
        invoice_number_prefix: 'INV-',
        mail_scan_retention_days: null,
        revision: 1,
        created_at: app.clock.now().toISOString(),
        updated_at: app.clock.now().toISOString(),
      });
    });

    it('changes only the fields sent, with a revision, an audit row and a replay', async () => {
      const admin = await createCaller(app);
      const input = {
        expectedRevision: 1,
        name: 'Acme',
        legalName: 'Acme Ltd',
        address: '1 High Street\nLondon',
        timeZone: 'Europe/London',
        defaultCurrency: 'GBP',
        invoiceNumberPrefix: 'AC/',
      };
      const res = await op(app, admin, 'admin.organization.update', input, {
        idempotencyKey: 'org-update-1',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.revision, 2);
      assert.equal(res.data.legal_name, 'Acme Ltd');
      assert.equal(res.data.time_zone, 'Europe/London');
      assert.equal(res.data.invoice_number_prefix, 'AC/');
      const replay = await op(app, admin, 'admin.organization.update', input, {
        idempotencyKey: 'org-update-1',
      });
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replay.data, res.data);

      const cleared = await op(app, admin, 'admin.organization.update', {
        expectedRevision: 2,
        legalName: null,
      });
      assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
      assert.equal(cleared.data.legal_name, null);
      assert.equal(cleared.data.name, 'Acme', 'fields not sent are kept');

      const audit = await auditRows(app, admin.organizationId, admin.organizationId);
      assert.deepEqual(
        audit.map((row) => [
          row.operation,
          row.record_type,
          row.before_revision,
          row.after_revision,
          row.actor_id,
        ]),
        [
          ['admin.organization.update', 'organization', 1, 2, admin.memberId],
          ['admin.organization.update', 'organization', 2, 3, admin.memberId],
        ],
      );
    });

    it('numbers the next invoice with the new prefix; the sequence continues', async () => {
      const admin = await createCaller(app);
      const take = () =>
        withUnit(
          app.services,
          {
            organizationId: admin.organizationId,
            actor: { type: 'job', job: 'test' },
            operation: 'test.number',
          },
          (unit) => nextInvoiceNumber(unit),
        );
      assert.equal(await take(), 'INV-000001');
      const res = await op(app, admin, 'admin.organization.update', {
        expectedRevision: 1,
        invoiceNumberPrefix: 'AC/',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(await take(), 'AC/000002');
    });

    it('refuses a stale revision with the current one, and bad settings naming the field', async () => {
      const admin = await createCaller(app);
      await op(app, admin, 'admin.organization.update', { expectedRevision: 1, name: 'First' });
      const stale = await op(app, admin, 'admin.organization.update', {
        expectedRevision: 1,
        name: 'Second',
      });
      assertError(stale, 409, 'revision_conflict');
      assert.equal(stale.error.current_revision, 2);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ timeZone: 'Mars/Olympus' }, 'timeZone'],
        [{ defaultCurrency: 'gbp' }, 'defaultCurrency'],
        [{ invoiceNumberPrefix: 'INV 2026 ' }, 'invoiceNumberPrefix'],
        [{ name: '' }, 'name'],
        [{ nickname: 'x' }, 'nickname'],
      ];
      for (const [change, field] of cases) {
        const res = await op(app, admin, 'admin.organization.update', { expectedRevision: 2, ...change });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.error.field, field, JSON.stringify(res.body));
      }
      const after = await op(app, admin, 'admin.organization.get');
      assert.equal(after.data.revision, 2, 'no refused change took effect');
    });

    it('is for admins with accounting:admin only', async () => {
      const admin = await createCaller(app);
      const finance = await createCaller(app, { role: 'finance', organizationId: admin.organizationId });
      assertError(await op(app, finance, 'admin.organization.get'), 403, 'role_not_allowed');
      const readOnly = await createCaller(app, {
        organizationId: admin.organizationId,
        scopes: ['accounting:read', 'accounting:write'],
      });
      assertError(await op(app, readOnly, 'admin.organization.get'), 403, 'insufficient_scope');
    });
  });
}
