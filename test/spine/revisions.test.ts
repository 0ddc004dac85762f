import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALL_SCOPES } from '../../src/contract/access.ts';
import { MAX_SAFE } from '../../src/contract/formats.ts';
import { findOperation, OPERATIONS } from '../../src/operations/catalog.ts';
import type { AnyOperation } from '../../src/operations/define.ts';
import { type Caller, startTestApp, type TestApp } from '../support/app.ts';
import { auditRows } from '../support/audit.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import {
  addCaller,
  contractorInput,
  exampleOf,
  factoryFor,
  ID_FIELD_RESOURCES,
  idFields,
  inputProperties,
  newOrganization,
  recordOf,
  resourceOfId,
} from '../support/factories.ts';
import { call } from '../support/http.ts';

/**
 * Optimistic concurrency for every operation that takes `expectedRevision`: a stale revision is a
 * 409 carrying the current revision and changes nothing; the bounds of the format hold; and one
 * revision admits exactly one change, however many requests race for it.
 */

/** Operations whose `expectedRevision` belongs to a record named by another field than `id`. */
const REVISION_OWNERS: Record<string, string> = {
  'contractorOps.roles.assign': 'contractorId',
  'invoices.payments.record': 'invoiceId',
  'matching.detach': 'receiptId',
};

/**
 * Operations that change two records at once name each record's revision
 * (`expectedReceiptRevision`, `expectedTransactionRevision`); their stale cases are tested with
 * the operation (test/operations/matching/suggestions-list.test.ts).
 */
const TWO_RECORD_OPERATIONS = new Set(['matching.attach']);

const REVISION_OPERATIONS = OPERATIONS.filter(
  (operation) =>
    operation.mutation?.revision === 'required' &&
    operation.access.roles !== 'dashboard' &&
    !TWO_RECORD_OPERATIONS.has(operation.name),
);

async function orgState(app: TestApp, organizationId: string) {
  const counts: number[] = [];
  for (const table of ['audit_log', 'events'] as const) {
    const row = await app.services.db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    counts.push(Number(row.n));
  }
  return counts;
}

/**
 * The record as `<resource>.get` shows it, when the resource has one. Reading a letter is itself
 * recorded (company mail keeps who read it), so a letter's reads are left out of the comparison.
 */
async function snapshot(app: TestApp, caller: Caller, resource: string, id: string): Promise<unknown> {
  const get = findOperation(`${resource}.get`);
  if (!get) return undefined;
  const body = (await call(app.baseUrl, get.name, { id }, { token: caller.token })).body as {
    data?: Record<string, unknown>;
  };
  if (resource === 'mail.items' && body.data) {
    const { reads: _reads, read_count: _count, ...rest } = body.data;
    return { ...body, data: rest };
  }
  return body;
}

function roleFor(operation: AnyOperation) {
  const roles = operation.access.roles;
  return roles === 'dashboard' || roles.includes('admin') ? 'admin' : (roles[0] ?? 'admin');
}

for (const dialect of DIALECTS) {
  describe(`revisions (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    it('the catalog has operations that take expectedRevision', () => {
      assert.ok(REVISION_OPERATIONS.length > 0);
      for (const operation of REVISION_OPERATIONS) {
        assert.ok(
          'expectedRevision' in inputProperties(operation),
          `${operation.name} has no expectedRevision input`,
        );
      }
    });

    for (const operation of REVISION_OPERATIONS) {
      const name = operation.name;
      const properties = inputProperties(operation);
      // The field naming the record whose revision `expectedRevision` is, and that record's kind.
      const owner = REVISION_OWNERS[name] ?? 'id';
      const resource = owner === 'id' ? resourceOfId(operation) : ID_FIELD_RESOURCES[owner];
      const factory = resource ? factoryFor(resource) : undefined;
      const others = idFields(operation).filter((f) => f.field !== owner);
      const skip =
        operation.example === undefined
          ? 'no example'
          : !(owner in properties)
            ? 'the revision belongs to a record not named by `id` (add it to REVISION_OWNERS)'
            : !resource || !factory || others.some((f) => !f.resource)
              ? 'no factory for its records (test/support/factories.ts)'
              : false;

      it(`${name}: a stale expectedRevision is 409 with current_revision and changes nothing`, {
        skip,
      }, async () => {
        if (!resource || !factory) return;
        const caller = await addCaller(app, await newOrganization(app), {
          role: roleFor(operation),
          scopes: ALL_SCOPES,
        });
        const references: Record<string, string> = {};
        for (const { field, resource: referenced } of others) {
          const make = referenced ? factoryFor(referenced) : undefined;
          if (make) references[field] = (await make(app, caller)).id;
        }
        const record = await factory(app, caller);
        assert.ok(record.revision, `${resource} records carry a revision`);
        const before = [
          await orgState(app, caller.organizationId),
          await snapshot(app, caller, resource, record.id),
        ];
        // A fresh idempotency key per call (the example may carry one in the body).
        const send = (expectedRevision: unknown) =>
          call(
            app.baseUrl,
            name,
            { ...exampleOf(operation), ...references, [owner]: record.id, expectedRevision },
            { token: caller.token },
          );
        for (const stale of [record.revision + 1, MAX_SAFE]) {
          const res = await send(stale);
          assertError(res, 409, 'revision_conflict', `${name} expectedRevision ${stale}`);
          assert.equal(res.error.current_revision, record.revision);
          assert.equal(res.error.field, 'expectedRevision');
        }
        for (const bad of [0, -1, MAX_SAFE + 1, 1.5, '1', null]) {
          const res = await send(bad);
          assertError(res, 400, 'invalid_input', `${name} expectedRevision ${String(bad)}`);
          assert.equal(res.error.field, 'expectedRevision');
        }
        const after = [
          await orgState(app, caller.organizationId),
          await snapshot(app, caller, resource, record.id),
        ];
        assert.deepEqual(after, before);

        // With the right revision the change goes through; if it moved the revision, the old one is stale.
        const ok = await send(record.revision);
        const changed = ok.status === 200 ? recordOf(ok.data) : undefined;
        if (
          owner === 'id' &&
          changed?.id === record.id &&
          changed.revision !== undefined &&
          changed.revision > record.revision
        ) {
          assert.equal(changed.revision, record.revision + 1);
          const again = await send(record.revision);
          assertError(again, 409, 'revision_conflict', `${name} after the change`);
          assert.equal(again.error.current_revision, changed.revision);
        }
      });
    }

    it('contractors.update: racing requests on one revision make exactly one change', {
      skip: findOperation('contractors.update') ? false : 'contractors.update does not exist yet',
    }, async () => {
      const caller = await addCaller(app, await newOrganization(app));
      const created = await call(app.baseUrl, 'contractors.create', contractorInput(), {
        token: caller.token,
      });
      const id = String(created.data.id);
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          call(
            app.baseUrl,
            'contractors.update',
            { id, expectedRevision: 1, displayName: `Racer ${i}` },
            { token: caller.token },
          ),
        ),
      );
      const ok = responses.filter((res) => res.status === 200);
      assert.equal(ok.length, 1, responses.map((res) => res.status).join(','));
      for (const res of responses.filter((r) => r.status !== 200)) {
        assertError(res, 409, 'revision_conflict', 'race');
        assert.equal(res.error.current_revision, 2);
      }
      const audit = await auditRows(
        app,
        { organizationId: caller.organizationId, recordId: id, operation: 'contractors.update' },
        { columns: ['before_revision', 'after_revision'] },
      );
      assert.deepEqual(audit, [{ before_revision: 1, after_revision: 2 }]);
      const current = await call(app.baseUrl, 'contractors.get', { id }, { token: caller.token });
      assert.equal(current.data.display_name, ok[0]?.data.display_name);
      assert.equal(current.data.revision, 2);
    });
  });
}
