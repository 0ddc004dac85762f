import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALL_SCOPES } from '../../src/contract/access.ts';
import { buildToolCatalog } from '../../src/mcp/tools.ts';
import { OPERATIONS } from '../../src/operations/catalog.ts';
import { mcpToolName } from '../../src/operations/define.ts';
import { confirmReceiptConsolidation } from '../../src/operations/matching/receipt-consolidation-confirm.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { auditRows } from '../support/audit.ts';
import { DIALECTS } from '../support/databases.ts';
import { call } from '../support/http.ts';

const DASHBOARD_ONLY = OPERATIONS.filter((operation) => operation.access.roles === 'dashboard');

describe('dashboard-only operations in the catalog', () => {
  it('include matching.receiptConsolidation.confirm and never become MCP tools', () => {
    assert.ok(DASHBOARD_ONLY.includes(confirmReceiptConsolidation));
    const tools = [...buildToolCatalog(OPERATIONS).values()];
    for (const operation of DASHBOARD_ONLY) {
      assert.equal(mcpToolName(operation), undefined);
      assert.ok(!tools.some((tool) => tool.operation === operation), `${operation.name} has no tool`);
    }
  });

  it('confirm’s handler runs the domain confirmation, whose checks come first (receipts issue)', async () => {
    // The full behaviour is tested in test/operations/matching/receipt-consolidation-preview.test.ts.
    await assert.rejects(
      confirmReceiptConsolidation.run({
        ctx: { principal: { memberId: 'm' } } as never,
        input: { originalsReviewed: false } as never,
      }),
      (error: { code?: string; field?: string }) =>
        error.code === 'invalid_input' && error.field === 'originalsReviewed',
    );
  });

  it('each names the member roles the dashboard lets call it (enable: admin; confirm: admin or finance, decision 332)', () => {
    const roles = Object.fromEntries(
      DASHBOARD_ONLY.map((operation) => [
        operation.name,
        operation.access.roles === 'dashboard' ? operation.access.dashboardRoles : [],
      ]),
    );
    assert.deepEqual(roles['webhooks.endpoints.enable'], ['admin']);
    assert.deepEqual(roles['admin.members.reinstate'], ['admin'], 'decision 440');
    assert.deepEqual(roles['matching.receiptConsolidation.confirm'], ['admin', 'finance']);
  });
});

for (const dialect of DIALECTS) {
  describe(`dashboard-only operations over the API (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app, { role: 'admin', scopes: ALL_SCOPES });
    });
    after(() => app.close());

    it('refuses every credential with 403 dashboard_only, before reading the input, changing nothing', async () => {
      for (const operation of DASHBOARD_ONLY) {
        const valid = await call(
          app.baseUrl,
          operation.name,
          { ...(operation.example as object) },
          {
            token: admin.token,
            idempotencyKey: null,
          },
        );
        assert.equal(valid.status, 403, operation.name);
        assert.equal(valid.error.code, 'dashboard_only');
        const garbage = await call(app.baseUrl, operation.name, { nonsense: true }, { token: admin.token });
        assert.equal(garbage.status, 403);
        assert.equal(garbage.error.code, 'dashboard_only');
      }
      const audit = await auditRows(app, { organizationId: admin.organizationId }, { columns: ['id'] });
      assert.equal(audit.length, 0);
    });
  });
}
