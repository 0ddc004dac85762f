import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../books/support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';

/**
 * Issue 27 part 6: blank text refused where a value is required; an idempotency error names the
 * header when the key came in it; a replay is byte-identical to the first answer on both databases.
 */
for (const dialect of DIALECTS) {
  describe(`transactions.create edges (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let accountId: string;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      accountId = String((await createAccount(app, admin)).id);
    });
    after(() => app.close());

    const input = (description: string) => ({
      accountId,
      bookedDate: '2026-03-01',
      amountMinor: '-100',
      description,
    });

    it('a blank description or account name is refused, not stored as ""', async () => {
      for (const blank of [' ', '   ', '\t\n', '\u00a0']) {
        const res = await call(app.baseUrl, 'transactions.create', input(blank), { token: admin.token });
        assert.equal(res.status, 400, JSON.stringify(blank));
        assert.equal(res.error.field, 'description');
        assert.match(res.error.message, /not blank/);
      }
      const account = await call(
        app.baseUrl,
        'accounts.create',
        { name: '  ', kind: 'checking', currency: 'EUR' },
        { token: admin.token },
      );
      assert.equal(account.status, 400);
      assert.equal(account.error.field, 'name');
    });

    it('idempotency_key_reused names the Idempotency-Key header when the key came in it', async () => {
      const headers = { 'idempotency-key': `edges-header-${dialect}-0001` };
      const first = await call(app.baseUrl, 'transactions.create', input('First'), {
        token: admin.token,
        headers,
      });
      assert.equal(first.status, 200);
      const reused = await call(app.baseUrl, 'transactions.create', input('Second'), {
        token: admin.token,
        headers,
      });
      assert.equal(reused.status, 400);
      assert.equal(reused.error.code, 'idempotency_key_reused');
      assert.equal(reused.error.field, 'Idempotency-Key');
      // In the body, the body field is named.
      const key = `edges-body-${dialect}-0001`;
      await call(
        app.baseUrl,
        'transactions.create',
        { ...input('First'), idempotencyKey: key },
        {
          token: admin.token,
        },
      );
      const body = await call(
        app.baseUrl,
        'transactions.create',
        { ...input('Other'), idempotencyKey: key },
        {
          token: admin.token,
        },
      );
      assert.equal(body.error.field, 'idempotencyKey');
    });

    it('a replay is byte-identical to the first answer', async () => {
      const send = async () => {
        const response = await fetch(`${app.baseUrl}/api/v1/accounting/transactions.create`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${admin.token}`,
            'content-type': 'application/json',
            'idempotency-key': `edges-replay-${dialect}-0001`,
          },
          body: JSON.stringify({ ...input('Replayed'), counterpartyName: 'Someone', note: 'a note' }),
        });
        assert.equal(response.status, 200);
        return response.text();
      };
      const first = await send();
      const again = await send();
      assert.equal(again, first);
    });
  });
}
