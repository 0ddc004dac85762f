import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  operatorAddMember,
  operatorChangeMember,
  operatorCreateKey,
  operatorCreateOrganization,
  operatorRevokeKey,
} from '../../src/admin/operator.ts';
import { AppError } from '../../src/contract/errors.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { auditRows } from '../support/audit.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import { call } from '../support/http.ts';

/**
 * The CLI's administration functions (src/admin/operator.ts) against both databases: the API's
 * rules hold for the operator too, and each change leaves audit rows with the operator as actor
 * and `cli` as transport. test/cli/admin-rules.test.ts runs the real CLI over the same code.
 */

async function refusedWith(work: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(work, (error: unknown) => error instanceof AppError && error.code === code);
}

for (const dialect of DIALECTS) {
  describe(`operator administration (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    async function organizationWithAdmin() {
      const org = await operatorCreateOrganization(app.services, 'alice', { name: 'Operator org' });
      const admin = await operatorAddMember(app.services, 'alice', {
        organizationId: org.id,
        email: `admin-${org.id}@example.com`,
        role: 'admin',
      });
      return { organizationId: org.id, admin };
    }

    it('never suspends, removes or demotes the last active admin; a reinstated member gets no key back', async () => {
      const { organizationId, admin } = await organizationWithAdmin();
      for (const change of [{ status: 'suspended' }, { status: 'removed' }, { role: 'finance' }] as const) {
        await refusedWith(
          operatorChangeMember(app.services, 'alice', { organizationId, memberId: admin.id, change }),
          'last_admin',
        );
      }
      const second = await operatorAddMember(app.services, 'alice', {
        organizationId,
        email: `second-${organizationId}@example.com`,
        role: 'admin',
      });
      await refusedWith(
        operatorChangeMember(app.services, 'alice', {
          organizationId,
          memberId: admin.id,
          change: { role: 'finance' },
          expectedRevision: 9,
        }),
        'revision_conflict',
      );
      const key = await operatorCreateKey(app.services, 'alice', {
        organizationId,
        memberId: second.id,
        scopes: ['accounting:read'],
      });
      const suspended = await operatorChangeMember(app.services, 'alice', {
        organizationId,
        memberId: second.id,
        change: { status: 'suspended' },
      });
      assert.equal(suspended.status, 'suspended');
      assertError(
        await call(app.baseUrl, 'contractors.list', {}, { token: key.token }),
        401,
        'invalid_credential',
      );
      // Now `admin` is the only active admin again.
      await refusedWith(
        operatorChangeMember(app.services, 'alice', {
          organizationId,
          memberId: admin.id,
          change: { role: 'finance' },
        }),
        'last_admin',
      );
      await refusedWith(
        operatorCreateKey(app.services, 'alice', {
          organizationId,
          memberId: second.id,
          scopes: ['accounting:read'],
        }),
        'invalid_state',
      );
      const back = await operatorChangeMember(app.services, 'alice', {
        organizationId,
        memberId: second.id,
        change: { status: 'active' },
      });
      assert.deepEqual([back.status, back.revision], ['active', 3]);
      assertError(
        await call(app.baseUrl, 'contractors.list', {}, { token: key.token }),
        401,
        'invalid_credential',
      );
      await operatorChangeMember(app.services, 'alice', {
        organizationId,
        memberId: second.id,
        change: { status: 'removed' },
      });
      await refusedWith(
        operatorChangeMember(app.services, 'alice', {
          organizationId,
          memberId: second.id,
          change: { status: 'active' },
        }),
        'invalid_state',
      );
    });

    it('keys: any scope (the operator holds them all), an expiry in the future, revoked once', async () => {
      const { organizationId, admin } = await organizationWithAdmin();
      await refusedWith(
        operatorCreateKey(app.services, 'alice', {
          organizationId,
          memberId: admin.id,
          scopes: ['accounting:read'],
          expiresAt: new Date(app.clock.now().getTime() - 1000).toISOString(),
        }),
        'invalid_input',
      );
      const key = await operatorCreateKey(app.services, 'alice', {
        organizationId,
        memberId: admin.id,
        scopes: ['mail:read', 'mail:write', 'accounting:admin'],
      });
      assert.deepEqual(key.row.scopes, ['mail:read', 'mail:write', 'accounting:admin']);
      const revoked = await operatorRevokeKey(app.services, 'alice', { organizationId, keyId: key.row.id });
      assert.equal(revoked.revision, 2);
      await refusedWith(
        operatorRevokeKey(app.services, 'alice', { organizationId, keyId: key.row.id }),
        'invalid_state',
      );
      // Another organization's key is not found.
      const other = await organizationWithAdmin();
      await refusedWith(
        operatorRevokeKey(app.services, 'alice', { organizationId: other.organizationId, keyId: key.row.id }),
        'not_found',
      );
      const rows = await auditRows(
        app,
        { organizationId, recordId: key.row.id },
        { orderBy: ['created_at', 'id'] },
      );
      assert.deepEqual(
        rows.map((row) => [row.operation, row.actor_type, row.actor_id, row.transport, row.after_revision]),
        [
          ['admin.apiKeys.create', 'operator', 'operator:alice', 'cli', 1],
          ['admin.apiKeys.revoke', 'operator', 'operator:alice', 'cli', 2],
        ],
      );
    });
  });
}
