import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MINUTE } from '../../../src/lib/clock.ts';
import { callTool, connectHttp, toolKey } from '../../mcp/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { op } from './helpers.ts';

interface Entry {
  id: string;
  actor_type: string;
  actor_id: string;
  credential_id: string | null;
  transport: string | null;
  operation: string;
  request_id: string;
  record_type: string;
  record_id: string;
  before_revision: number | null;
  after_revision: number | null;
  created_at: string;
}

for (const dialect of DIALECTS) {
  describe(`admin.auditLog.list (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app.close());

    const list = async (caller: Caller, input: Record<string, unknown>) => {
      const res = await op(app, caller, 'admin.auditLog.list', input, { method: 'GET' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.data as unknown as { items: Entry[]; nextCursor: string | null };
    };

    it('names actor, credential, transport, operation, request, record and revisions', async () => {
      const admin = await createCaller(app);
      const added = await op(app, admin, 'admin.members.add', { email: 'c@example.com', role: 'finance' });
      const memberId = String(added.data.id);
      const { items } = await list(admin, { recordId: memberId });
      assert.equal(items.length, 1);
      const [entry] = items;
      const key = await app.services.db.kysely
        .selectFrom('api_keys')
        .select('id')
        .where('member_id', '=', admin.memberId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        { ...entry, id: undefined },
        {
          id: undefined,
          actor_type: 'member',
          actor_id: admin.memberId,
          credential_id: key.id,
          transport: 'http',
          operation: 'admin.members.add',
          request_id: added.headers.get('x-request-id'),
          record_type: 'member',
          record_id: memberId,
          before_revision: null,
          after_revision: 1,
          created_at: app.clock.now().toISOString(),
        },
      );
    });

    it('records the MCP transport for a change made through a tool', async () => {
      const admin = await createCaller(app);
      const connection = await connectHttp(app, admin.token);
      try {
        const outcome = await callTool(connection.client, 'accounting_admin_members_add', {
          email: 'mcp@example.com',
          role: 'finance',
          idempotencyKey: toolKey('admin-add'),
        });
        assert.equal(outcome.isError, false, outcome.text);
      } finally {
        await connection.close();
      }
      const { items } = await list(admin, { operation: 'admin.members.add' });
      assert.deepEqual(
        items.map((e) => e.transport),
        ['mcp'],
      );
    });

    it('filters by actor, operation, record type and time range; only this organization', async () => {
      const admin = await createCaller(app);
      const second = await createCaller(app, { organizationId: admin.organizationId });
      const start = app.clock.now();
      await op(app, admin, 'admin.organization.update', { expectedRevision: 1, name: 'One' });
      app.clock.advance(MINUTE);
      const middle = app.clock.now();
      await op(app, second, 'admin.organization.update', { expectedRevision: 2, name: 'Two' });
      await op(app, second, 'admin.members.add', { email: 'd@example.com', role: 'finance' });
      app.clock.advance(MINUTE);
      // Another organization's changes never show.
      const stranger = await createCaller(app);
      await op(app, stranger, 'admin.organization.update', { expectedRevision: 1, name: 'Other' });

      assert.deepEqual(
        (await list(admin, { actorId: second.memberId })).items.map((e) => e.operation),
        ['admin.members.add', 'admin.organization.update'],
      );
      assert.deepEqual(
        (await list(admin, { operation: 'admin.organization.update' })).items.map((e) => e.after_revision),
        [3, 2],
      );
      assert.deepEqual(
        (await list(admin, { recordType: 'organization', from: middle.toISOString() })).items.map(
          (e) => e.actor_id,
        ),
        [second.memberId],
      );
      assert.deepEqual(
        (await list(admin, { from: start.toISOString(), to: middle.toISOString() })).items.map(
          (e) => e.actor_id,
        ),
        [admin.memberId],
      );
      const inverted = await op(app, admin, 'admin.auditLog.list', {
        from: middle.toISOString(),
        to: start.toISOString(),
      });
      assertError(inverted, 400, 'invalid_input');
      // Named like every reversed range (issue 27): the `to` that is not after `from`.
      assert.equal(inverted.error.field, 'to');
      assert.match(inverted.error.message, /is not after from/);
      app.clock.set(start);
    });

    it('pages with a cursor without skipping or repeating while entries arrive', async () => {
      const admin = await createCaller(app);
      for (let i = 0; i < 5; i += 1) {
        await op(app, admin, 'admin.members.add', { email: `p${i}@example.com`, role: 'finance' });
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { items: Entry[]; nextCursor: string | null } = await list(admin, {
          limit: 2,
          operation: 'admin.members.add',
          ...(cursor === null ? {} : { cursor }),
        });
        seen.push(...page.items.map((e) => e.record_id));
        cursor = page.nextCursor;
        pages += 1;
        // A new entry between pages sorts before the cursor: it never appears in later pages.
        if (pages === 1)
          await op(app, admin, 'admin.members.add', { email: 'late@example.com', role: 'finance' });
      } while (cursor !== null);
      assert.equal(pages, 3);
      assert.equal(seen.length, 5);
      assert.equal(new Set(seen).size, 5);
      assertError(
        await op(app, admin, 'admin.auditLog.list', { cursor: 'not-a-cursor' }),
        400,
        'invalid_input',
      );
    });
  });
}
