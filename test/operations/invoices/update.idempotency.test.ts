import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createInvoice, createParty, type Json, LINE } from '../../invoicing/ops-support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { auditRows } from '../../support/audit.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call, freshKey } from '../../support/http.ts';

/**
 * Retried invoice and party mutations: the same key with the same request answers the first
 * answer again (Idempotent-Replayed) and changes nothing; the same key with another request is
 * 400 idempotency_key_reused (docs/errors.md) and changes nothing either.
 */
for (const dialect of DIALECTS) {
  describe(`invoice and party idempotency (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let party: Json;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      party = await createParty(app, admin);
    });
    after(() => app.close());

    const op = (name: string, input: Json, key: string) =>
      call(app.baseUrl, name, input, { token: admin.token, idempotencyKey: key });
    /** Rows of the organization in every table a mutation writes to. */
    const footprint = async () => {
      const counts: number[] = [];
      for (const table of ['invoices', 'invoice_lines', 'parties', 'audit_log', 'events'] as const) {
        const row = await app.services.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('organization_id', '=', admin.organizationId)
          .executeTakeFirstOrThrow();
        counts.push(Number(row.n));
      }
      return counts;
    };
    const replayed = (res: { headers: Headers }) => res.headers.get('idempotent-replayed');

    /** First call, replay, then the key reused for `other`: one effect in all. */
    async function checkReplay(name: string, input: Json, other: Json): Promise<Json> {
      const key = freshKey();
      const before = await footprint();
      const first = await op(name, input, key);
      assert.equal(first.status, 200, `${name} ${JSON.stringify(first.body)}`);
      assert.notEqual(replayed(first), 'true', name);
      const once = await footprint();
      assert.notDeepEqual(once, before, `${name} changed something`);
      const second = await op(name, input, key);
      assert.equal(second.status, 200, name);
      assert.equal(replayed(second), 'true', name);
      assert.deepEqual(second.body, first.body, name);
      // The key also works when sent in the body instead of the header.
      const inBody = await call(app.baseUrl, name, { ...input, idempotencyKey: key }, { token: admin.token });
      assert.equal(inBody.status, 200, `${name} ${JSON.stringify(inBody.body)}`);
      assert.deepEqual(inBody.body, first.body, name);
      assertError(await op(name, other, key), 400, 'idempotency_key_reused', name);
      assert.deepEqual(await footprint(), once, `${name}: one effect`);
      return first.data as Json;
    }

    it('invoices.create: a retry creates one invoice; the key with another request is refused', async () => {
      const input = { partyId: party.id, currency: 'CAD', lines: [LINE], dueDate: '2026-02-09' };
      const made = await checkReplay('invoices.create', input, { ...input, currency: 'USD' });
      assert.equal(made.status, 'draft');
      const rows = await app.services.db.kysely
        .selectFrom('invoices')
        .select('id')
        .where('organization_id', '=', admin.organizationId)
        .where('currency', '=', 'USD')
        .execute();
      assert.deepEqual(rows, []);
    });

    it('invoices.update: a retry replays the first answer, even after a later change', async () => {
      const draft = await createInvoice(app, admin, String(party.id));
      const input = { id: draft.id, expectedRevision: draft.revision, notes: 'PO 1' };
      const key = freshKey();
      const first = await op('invoices.update', input, key);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.data.revision, 2);
      const later = await op(
        'invoices.update',
        { id: draft.id, expectedRevision: 2, notes: 'PO 2' },
        freshKey(),
      );
      assert.equal(later.status, 200, JSON.stringify(later.body));
      const replay = await op('invoices.update', input, key);
      assert.equal(replay.status, 200);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replay.body, first.body);
      // A new key is a new request: the revision it names is gone.
      assertError(await op('invoices.update', input, freshKey()), 409, 'revision_conflict');
      const current = await call(app.baseUrl, 'invoices.get', { id: draft.id }, { token: admin.token });
      assert.equal(current.data.notes, 'PO 2');
      assert.equal(current.data.revision, 3);
      await checkReplay(
        'invoices.update',
        { id: draft.id, expectedRevision: 3, notes: 'PO 3' },
        { id: draft.id, expectedRevision: 3, notes: 'PO 4' },
      );
    });

    it('parties.update: a retry changes the party once; the key with another change is refused', async () => {
      const target = await createParty(app, admin, { name: 'Before' });
      const input = { id: target.id, expectedRevision: target.revision, name: 'After' };
      const updated = await checkReplay('parties.update', input, { ...input, name: 'Other' });
      assert.equal(updated.name, 'After');
      assert.equal(updated.revision, 2);
      const got = await call(app.baseUrl, 'parties.get', { id: target.id }, { token: admin.token });
      assert.equal(got.data.name, 'After');
      assert.equal(got.data.revision, 2);
      const audit = await auditRows(app, { recordId: String(target.id) }, { columns: ['after_revision'] });
      assert.deepEqual(audit.map((a) => a.after_revision).sort(), [1, 2]);
    });
  });
}
