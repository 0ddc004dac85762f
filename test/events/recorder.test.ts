import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createOrganization } from '../../src/admin/organizations.ts';
import { EVENT_TYPES } from '../../src/events/catalog.ts';
import { createEventRecorder } from '../../src/events/recorder.ts';
import { TestClock } from '../../src/lib/clock.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

describe('event catalog coverage', () => {
  it('every event type literal emitted in src/ is in the catalog', () => {
    const known = new Set(EVENT_TYPES.map((definition) => definition.type));
    const unknown: string[] = [];
    for (const file of sourceFiles('src')) {
      if (file.includes(`${path.sep}events${path.sep}types${path.sep}`)) continue;
      const text = readFileSync(file, 'utf8');
      // `type: 'group.name'` inside emit/record calls (subject types have no dot).
      for (const match of text.matchAll(/\btype:\s*'([a-z_]+(?:\.[a-z_]+)+)'/g)) {
        const type = match[1] ?? '';
        if (!known.has(type)) unknown.push(`${file}: ${type}`);
      }
    }
    assert.deepEqual(unknown, []);
  });
});

for (const dialect of DIALECTS) {
  describe(`event recorder (${dialect})`, () => {
    let database: TestDatabase;
    let organizationId: string;
    before(async () => {
      database = await createTestDatabase(dialect);
      organizationId = (await createOrganization(database.db.kysely, new TestClock(), { name: 'Org' })).id;
    });
    after(() => database.drop());

    it('refuses a type that is not in the catalog, writing nothing', async () => {
      const fanned: string[] = [];
      const recorder = createEventRecorder([async (_db, event) => fanned.push(event.type)]);
      const meta = { requestId: null, now: new Date('2026-01-15T12:00:00Z') };
      await assert.rejects(
        recorder.record(
          database.db.kysely,
          organizationId,
          { type: 'invoice.exploded', subject: null, data: {} },
          meta,
        ),
        /invoice\.exploded is not in the event catalog/,
      );
      const recorded = await recorder.record(
        database.db.kysely,
        organizationId,
        {
          type: 'webhook.endpoint.enabled',
          subject: { type: 'webhook_endpoint', id: '01920000-0000-7000-8000-000000000001' },
          data: { url: 'https://a.example.com/' },
        },
        meta,
      );
      const rows = await database.db.kysely
        .selectFrom('events')
        .select(['id', 'type'])
        .where('organization_id', '=', organizationId)
        .execute();
      assert.deepEqual(rows, [{ id: recorded.id, type: 'webhook.endpoint.enabled' }]);
      assert.deepEqual(fanned, ['webhook.endpoint.enabled']);
    });

    it('checks subject and data against the catalog: a mismatch is reported and, under test, refused', async () => {
      const reported: string[] = [];
      const recorder = createEventRecorder([], (message) => void reported.push(message));
      const meta = { requestId: null, now: new Date('2026-01-15T12:00:00Z') };
      const subject = { type: 'webhook_endpoint', id: '01920000-0000-7000-8000-000000000002' };
      await recorder.record(
        database.db.kysely,
        organizationId,
        { type: 'webhook.endpoint.enabled', subject: null, data: { url: 'https://a.example.com/' } },
        meta,
      );
      await recorder.record(
        database.db.kysely,
        organizationId,
        { type: 'webhook.endpoint.enabled', subject, data: { url: 7 } },
        meta,
      );
      await recorder.record(
        database.db.kysely,
        organizationId,
        { type: 'webhook.endpoint.enabled', subject, data: { url: 'https://a.example.com/' } },
        meta,
      );
      // A field the catalog does not document is a mismatch too, even where a schema left objects open.
      await recorder.record(
        database.db.kysely,
        organizationId,
        { type: 'webhook.endpoint.enabled', subject, data: { url: 'https://a.example.com/', extra: 1 } },
        meta,
      );
      assert.equal(reported.length, 3, reported.join('\n'));
      assert.match(reported[0] ?? '', /subject type null, the catalog says webhook_endpoint/);
      assert.match(reported[1] ?? '', /data\/url must be string/);
      assert.match(reported[2] ?? '', /must NOT have additional properties/);
      // The default (NODE_ENV=test here) refuses, so no test can emit an undocumented shape.
      await assert.rejects(
        createEventRecorder().record(
          database.db.kysely,
          organizationId,
          { type: 'webhook.endpoint.enabled', subject, data: {} },
          meta,
        ),
        /does not match the catalog/,
      );
    });
  });
}
