import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OPERATIONS } from '../../../src/operations/catalog.ts';
import { createAccount, ok } from '../../books/support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';

/**
 * Issue 27 part 2 and the reversed-range edge: one date range for the whole service
 * (1900-01-01..2999-12-31, docs/decisions.md 321), refused with a message naming the range and
 * YYYY-MM-DD, so that no accepted date reaches a query PostgreSQL cannot run (year 0000 was a 500);
 * `to` before `from` refused alike by every operation taking a date range.
 */
const OUTSIDE = ['0000-01-01', '0001-01-01', '1899-12-31', '3000-01-01', '9999-12-31'];

for (const dialect of DIALECTS) {
  describe(`date range (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let accountId: string;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      accountId = String((await createAccount(app, admin)).id);
    });
    after(() => app.close());

    const refused = async (operation: string, input: Record<string, unknown>, field: string) => {
      const res = await call(app.baseUrl, operation, input, { token: admin.token });
      assert.equal(res.status, 400, `${operation} ${JSON.stringify(input)}: ${res.status}`);
      assert.equal(res.error.field, field);
      return res.error.message;
    };

    it('dates outside 1900-01-01..2999-12-31 are refused naming the range and YYYY-MM-DD', async () => {
      for (const date of OUTSIDE) {
        for (const operation of ['entries.list', 'transactions.list']) {
          const message = await refused(operation, { from: date }, 'from');
          assert.match(message, /YYYY-MM-DD/);
          assert.match(message, /1900-01-01 and 2999-12-31/);
        }
        await refused(
          'transactions.create',
          { accountId, bookedDate: date, amountMinor: '-100', description: 'Old' },
          'bookedDate',
        );
        await refused('entries.export', { from: date, to: '2026-01-01' }, 'from');
        await refused(
          'accounts.create',
          { name: 'Old', kind: 'checking', currency: 'EUR', openingDate: date, openingBalanceMinor: '0' },
          'openingDate',
        );
      }
      const timestamp = await refused('admin.auditLog.list', { from: '0000-01-01T00:00:00Z' }, 'from');
      assert.match(timestamp, /1900-01-01 and 2999-12-31/);
    });

    it('the edges of the range are accepted and answer on both databases', async () => {
      for (const date of ['1900-01-01', '2999-12-31']) {
        const made = await ok(app, admin, 'transactions.create', {
          accountId,
          bookedDate: date,
          amountMinor: '-100',
          description: `Edge ${date}`,
        });
        assert.equal(made.booked_date, date);
        const page = await ok<{ items: unknown[] }>(app, admin, 'entries.list', { from: date, to: date });
        assert.equal(page.items.length, 1);
      }
    });

    it('a crafted attention.mine cursor with a date outside the range is refused, not a 500', async () => {
      for (const date of ['0000-01-01', '9999-12-31']) {
        const cursor = Buffer.from(
          JSON.stringify(['a', date, '00000000-0000-4000-8000-000000000000']),
        ).toString('base64url');
        await refused('attention.mine', { cursor }, 'cursor');
      }
    });

    it('to before from is refused the same way by entries.list, transactions.list and entries.export', async () => {
      const messages: string[] = [];
      for (const operation of ['entries.list', 'transactions.list', 'entries.export']) {
        messages.push(await refused(operation, { from: '2026-02-01', to: '2026-01-31' }, 'to'));
      }
      assert.equal(new Set(messages).size, 1, messages.join(' | '));
      assert.match(messages[0] ?? '', /2026-01-31.*before.*2026-02-01/);
    });

    it('every operation taking from and to (found in the catalog) refuses a reversed pair naming to', async () => {
      const ranged = OPERATIONS.filter((operation) => {
        const properties = (operation.input as { properties?: Record<string, { format?: string }> })
          .properties;
        return properties?.from?.format !== undefined && properties.to?.format !== undefined;
      });
      assert.ok(ranged.length >= 4, ranged.map((o) => o.name).join(', '));
      for (const operation of ranged) {
        const timestamps =
          (operation.input as { properties: Record<string, { format?: string }> }).properties.from?.format ===
          'date-time';
        const input = timestamps
          ? { from: '2026-02-01T00:00:00Z', to: '2026-01-31T00:00:00Z' }
          : { from: '2026-02-01', to: '2026-01-31' };
        await refused(operation.name, input, 'to');
      }
    });
  });
}
