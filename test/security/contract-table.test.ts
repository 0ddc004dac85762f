import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findOperation } from '../../src/operations/catalog.ts';
import { acceptsGet, mcpToolName } from '../../src/operations/define.ts';

/**
 * The contract's operation table, row by row, against the catalog: methods, scopes and roles,
 * idempotency bounds, revisions and MCP tool names where the contract gives them.
 * "not shown" cells are left out.
 */

interface Row {
  methods: 'POST' | 'POST, GET';
  scopes?: string[];
  roles: string[] | 'dashboard';
  idempotencyKeyMax?: 150 | 200;
  revision?: 'required' | 'none';
  mcpTool?: string;
}

const READ = ['accounting:read'];
const WRITE = ['accounting:read', 'accounting:write'];
const BOTH: string[] = ['admin', 'finance'];

const CONTRACT: Record<string, Row> = {
  'contractors.list': { methods: 'POST, GET', scopes: READ, roles: BOTH },
  'contractors.get': { methods: 'POST, GET', scopes: READ, roles: BOTH },
  'contractors.create': {
    methods: 'POST',
    scopes: WRITE,
    roles: BOTH,
    idempotencyKeyMax: 150,
    revision: 'none',
  },
  'contractors.update': {
    methods: 'POST',
    scopes: WRITE,
    roles: BOTH,
    idempotencyKeyMax: 150,
    revision: 'required',
  },
  'contractors.invite': {
    methods: 'POST',
    scopes: WRITE,
    roles: BOTH,
    idempotencyKeyMax: 150,
    revision: 'required',
  },
  'contractors.invitations.list': { methods: 'POST, GET', scopes: READ, roles: BOTH },
  'contractors.invitations.revoke': {
    methods: 'POST',
    scopes: WRITE,
    roles: BOTH,
    idempotencyKeyMax: 150,
    revision: 'required',
  },
  'contractors.templates.list': { methods: 'POST', scopes: READ, roles: BOTH },
  'invoices.schedules.pause': {
    methods: 'POST',
    scopes: WRITE,
    roles: BOTH,
    idempotencyKeyMax: 200,
    revision: 'required',
    mcpTool: 'accounting_invoices_schedules_pause',
  },
  'webhooks.endpoints.rotateSecret': {
    methods: 'POST',
    scopes: [...WRITE, 'accounting:admin'],
    roles: ['admin'],
    idempotencyKeyMax: 200,
    revision: 'required',
    mcpTool: 'accounting_webhooks_endpoints_rotate_secret',
  },
  'webhooks.endpoints.create': { methods: 'POST', roles: ['admin'], idempotencyKeyMax: 200 },
  'matching.receiptConsolidation.confirm': { methods: 'POST', roles: 'dashboard', idempotencyKeyMax: 200 },
};

describe("the contract's operation table", () => {
  for (const [name, row] of Object.entries(CONTRACT)) {
    it(`${name}: ${row.methods}; ${row.scopes?.join(', ') ?? 'scopes not shown'}; ${row.roles === 'dashboard' ? 'dashboard only' : row.roles.join(', ')}`, () => {
      const operation = findOperation(name);
      assert.ok(operation, `${name} is in the catalog`);
      assert.equal(acceptsGet(operation) ? 'POST, GET' : 'POST', row.methods, 'methods');
      if (row.scopes) assert.deepEqual([...operation.access.scopes].sort(), [...row.scopes].sort(), 'scopes');
      assert.deepEqual(operation.access.roles, row.roles, 'roles');
      if (row.idempotencyKeyMax) assert.equal(operation.mutation?.idempotencyKeyMax, row.idempotencyKeyMax);
      if (row.revision) assert.equal(operation.mutation?.revision, row.revision);
      if (row.mcpTool) assert.equal(mcpToolName(operation), row.mcpTool);
      if (row.roles === 'dashboard') assert.equal(mcpToolName(operation), undefined, 'no MCP tool');
    });
  }

  it('contractors.update: turning `active` on or off is for administrators only', () => {
    const operation = findOperation('contractors.update');
    assert.deepEqual(operation?.access.restrictedFields?.active, ['admin']);
  });
});
