import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createInvoice, createParty, type Json, LINE, sendInvoice } from '../../invoicing/ops-support.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';

const NIL = '00000000-0000-0000-0000-000000000000';

/** [input, status, code, field] */
type Case = [Json, number, string, string | undefined];

/**
 * Bad input of the invoice and party operations, each refused with its exact code and field and
 * without any change: wrong types (bodies are never coerced), unknown fields, bad and unknown ids,
 * out-of-range paging, missing required fields.
 */
for (const dialect of DIALECTS) {
  describe(`invoice and party operations refuse bad input (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let party: Json;
    let draft: Json;
    let sent: Json;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
      party = await createParty(app, admin);
      draft = await createInvoice(app, admin, String(party.id));
      sent = await sendInvoice(app, admin, await createInvoice(app, admin, String(party.id)));
    });
    after(() => app.close());

    async function refuses(operation: string, cases: Case[], method: 'GET' | 'POST' = 'POST') {
      for (const [input, status, code, field] of cases) {
        const label = `${method} ${operation} ${JSON.stringify(input).slice(0, 120)}`;
        const res = await call(app.baseUrl, operation, input, { token: admin.token, method });
        assertError(res, status, code, label);
        assert.equal(res.error.field, field, label);
      }
    }
    /** Revision, status and number of both invoices: unchanged by any refused request. */
    const state = async () =>
      app.services.db.kysely
        .selectFrom('invoices')
        .select(['id', 'revision', 'status', 'number', 'notes'])
        .where('organization_id', '=', admin.organizationId)
        .orderBy('id')
        .execute();

    it('invoices.update', async () => {
      const before = await state();
      const id = draft.id;
      await refuses('invoices.update', [
        [{}, 400, 'invalid_input', 'id'],
        [{ expectedRevision: 1, notes: 'x' }, 400, 'invalid_input', 'id'],
        [{ id, notes: 'x' }, 400, 'invalid_input', 'expectedRevision'],
        [{ id: 'INV-1', expectedRevision: 1 }, 400, 'invalid_input', 'id'],
        [{ id: 42, expectedRevision: 1 }, 400, 'invalid_input', 'id'],
        [{ id, expectedRevision: '1' }, 400, 'invalid_input', 'expectedRevision'],
        [{ id, expectedRevision: 0 }, 400, 'invalid_input', 'expectedRevision'],
        [{ id, expectedRevision: 1.5 }, 400, 'invalid_input', 'expectedRevision'],
        [{ id, expectedRevision: 1, colour: 'red' }, 400, 'unknown_field', 'colour'],
        [{ id, expectedRevision: 1, notes: 5 }, 400, 'invalid_input', 'notes'],
        [{ id, expectedRevision: 1, notes: 'x'.repeat(2001) }, 400, 'invalid_input', 'notes'],
        [{ id, expectedRevision: 1, lines: [] }, 400, 'invalid_input', 'lines'],
        [{ id, expectedRevision: 1, lines: LINE }, 400, 'invalid_input', 'lines'],
        [
          { id, expectedRevision: 1, lines: [{ ...LINE, quantity: '0' }] },
          400,
          'invalid_quantity',
          'lines.0.quantity',
        ],
        [{ id, expectedRevision: 1, currency: 'usd' }, 400, 'unsupported_currency', 'currency'],
        [{ id, expectedRevision: 1, issueDate: '2026-02-30' }, 400, 'invalid_input', 'issueDate'],
        [{ id, expectedRevision: 1, dueDate: '2026-01-01' }, 400, 'invalid_input', 'dueDate'],
        [{ id, expectedRevision: 1, paymentTermsDays: 1.5 }, 400, 'invalid_input', 'paymentTermsDays'],
        [{ id, expectedRevision: 1, paymentTermsDays: 366 }, 400, 'invalid_input', 'paymentTermsDays'],
        [
          { id, expectedRevision: 1, dueDate: '2026-02-01', paymentTermsDays: 3 },
          400,
          'invalid_input',
          'paymentTermsDays',
        ],
        [
          { id, expectedRevision: 1, scheduledSendDate: '2026-01-09' },
          400,
          'invalid_input',
          'scheduledSendDate',
        ],
        [{ id, expectedRevision: 1, partyId: 'x' }, 400, 'invalid_input', 'partyId'],
        [{ id, expectedRevision: 1, partyId: NIL }, 404, 'not_found', 'partyId'],
        [{ id, expectedRevision: 1, idempotencyKey: 'short' }, 400, 'invalid_input', 'idempotencyKey'],
        [{ id: NIL, expectedRevision: 1 }, 404, 'not_found', 'id'],
        [{ id, expectedRevision: 2, notes: 'x' }, 409, 'revision_conflict', 'expectedRevision'],
      ]);
      assert.deepEqual(await state(), before);
    });

    it('invoices.send and invoices.void', async () => {
      const before = await state();
      for (const operation of ['invoices.send', 'invoices.void']) {
        await refuses(operation, [
          [{}, 400, 'invalid_input', 'id'],
          [{ id: draft.id }, 400, 'invalid_input', 'expectedRevision'],
          [{ id: 'nope', expectedRevision: 1 }, 400, 'invalid_input', 'id'],
          [{ id: draft.id, expectedRevision: 'one' }, 400, 'invalid_input', 'expectedRevision'],
          [{ id: draft.id, expectedRevision: -1 }, 400, 'invalid_input', 'expectedRevision'],
          [{ id: draft.id, expectedRevision: 1, force: true }, 400, 'unknown_field', 'force'],
          [{ id: NIL, expectedRevision: 1 }, 404, 'not_found', 'id'],
          [{ id: draft.id, expectedRevision: 9 }, 409, 'revision_conflict', 'expectedRevision'],
        ]);
      }
      await refuses('invoices.send', [
        [{ id: draft.id, expectedRevision: 1, reason: 'x' }, 400, 'unknown_field', 'reason'],
        [{ id: sent.id, expectedRevision: sent.revision }, 409, 'invalid_state', undefined],
      ]);
      await refuses('invoices.void', [
        [{ id: draft.id, expectedRevision: 1, reason: '' }, 400, 'invalid_input', 'reason'],
        [{ id: draft.id, expectedRevision: 1, reason: 'x'.repeat(501) }, 400, 'invalid_input', 'reason'],
        [{ id: draft.id, expectedRevision: 1, reason: 7 }, 400, 'invalid_input', 'reason'],
      ]);
      assert.deepEqual(await state(), before);
    });

    it('invoices.get and invoices.pdf (body and query string)', async () => {
      for (const operation of ['invoices.get', 'invoices.pdf']) {
        await refuses(operation, [
          [{}, 400, 'invalid_input', 'id'],
          [{ id: 'nope' }, 400, 'invalid_input', 'id'],
          [{ id: 12 }, 400, 'invalid_input', 'id'],
          [{ id: sent.id, expand: 'lines' }, 400, 'unknown_field', 'expand'],
          [{ id: NIL }, 404, 'not_found', 'id'],
        ]);
        await refuses(
          operation,
          [
            [{}, 400, 'invalid_input', 'id'],
            [{ id: 'nope' }, 400, 'invalid_input', 'id'],
            [{ id: NIL }, 404, 'not_found', 'id'],
          ],
          'GET',
        );
        const unknown = await call(
          app.baseUrl,
          operation,
          { id: sent.id, expand: 'lines' },
          { token: admin.token, method: 'GET' },
        );
        assertError(unknown, 400, 'unknown_parameter', operation);
      }
      // A draft has no PDF yet.
      await refuses('invoices.pdf', [[{ id: draft.id }, 404, 'not_found', 'id']]);
    });

    it('invoices.list and parties.list (body and query string)', async () => {
      const paging: Case[] = [
        [{ limit: 0 }, 400, 'invalid_input', 'limit'],
        [{ limit: 101 }, 400, 'invalid_input', 'limit'],
        [{ limit: 1.5 }, 400, 'invalid_input', 'limit'],
        [{ limit: '10' }, 400, 'invalid_input', 'limit'],
        [{ offset: -1 }, 400, 'invalid_input', 'offset'],
        [{ offset: 9007199254740992 }, 400, 'invalid_input', 'offset'],
        [{ offset: 'x' }, 400, 'invalid_input', 'offset'],
        [{ search: '' }, 400, 'invalid_input', 'search'],
        [{ search: 'x'.repeat(201) }, 400, 'invalid_input', 'search'],
        [{ search: 5 }, 400, 'invalid_input', 'search'],
        [{ sort: 'name' }, 400, 'unknown_field', 'sort'],
      ];
      const query: Case[] = [
        [{ limit: 'abc' }, 400, 'invalid_input', 'limit'],
        [{ limit: 0 }, 400, 'invalid_input', 'limit'],
        [{ limit: 101 }, 400, 'invalid_input', 'limit'],
        [{ offset: -1 }, 400, 'invalid_input', 'offset'],
        [{ offset: '1e3' }, 400, 'invalid_input', 'offset'],
      ];
      await refuses('invoices.list', [
        ...paging,
        [{ status: 'late' }, 400, 'invalid_input', 'status'],
        [{ status: 'SENT' }, 400, 'invalid_input', 'status'],
        [{ partyId: 'x' }, 400, 'invalid_input', 'partyId'],
        [{ partyId: 1 }, 400, 'invalid_input', 'partyId'],
      ]);
      await refuses('parties.list', paging);
      for (const operation of ['invoices.list', 'parties.list']) {
        await refuses(operation, query, 'GET');
        const unknown = await call(
          app.baseUrl,
          operation,
          { sort: 'name' },
          { token: admin.token, method: 'GET' },
        );
        assertError(unknown, 400, 'unknown_parameter', operation);
        // The bounds themselves are accepted.
        const edge = await call(
          app.baseUrl,
          operation,
          { limit: 100, offset: 0 },
          { token: admin.token, method: 'GET' },
        );
        assert.equal(edge.status, 200, JSON.stringify(edge.body));
      }
    });

    it('parties.get (body and query string)', async () => {
      const stranger = await createCaller(app);
      const theirs = await createParty(app, stranger);
      const cases: Case[] = [
        [{}, 400, 'invalid_input', 'id'],
        [{ id: 'nope' }, 400, 'invalid_input', 'id'],
        [{ id: NIL }, 404, 'not_found', 'id'],
        [{ id: theirs.id }, 404, 'not_found', 'id'],
      ];
      await refuses('parties.get', [
        ...cases,
        [{ id: true }, 400, 'invalid_input', 'id'],
        [{ id: party.id, email: 'x@example.com' }, 400, 'unknown_field', 'email'],
      ]);
      await refuses('parties.get', cases, 'GET');
      const unknown = await call(
        app.baseUrl,
        'parties.get',
        { id: party.id, email: 'x' },
        { token: admin.token, method: 'GET' },
      );
      assertError(unknown, 400, 'unknown_parameter');
    });
  });
}
