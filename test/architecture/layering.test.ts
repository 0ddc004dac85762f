import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { type Import, layeringViolations, readImports, roomCycles } from './imports.ts';

/** Whether source text inserts into, updates or deletes from `table` (migrations aside). */
/** A Kysely write to `table`, or one in raw SQL (`update <table>`, `insert into`, `delete from`). */
function writesTable(text: string, table: string): boolean {
  return (
    new RegExp(`\\.(insertInto|updateTable|deleteFrom)\\(\\s*'${table}'`).test(text) ||
    new RegExp(`\\b(update|insert\\s+into|delete\\s+from)\\s+${table}\\b`, 'i').test(text)
  );
}

const srcDir = path.join(import.meta.dirname, '../../src');
const imports = readImports(srcDir);

describe('layering (docs/architecture.md)', () => {
  it('no domain module imports a transport, jobs/, operations/ or the composition root', () => {
    assert.deepEqual(layeringViolations(imports), []);
  });

  it('no import cycle between rooms (top-level folders and files of src/)', () => {
    assert.deepEqual(roomCycles(imports), []);
  });

  it('migrations import no live code, only the persistence layer (db/)', () => {
    const outside = imports.filter(
      ({ from, to }) => from.startsWith('db/migrations/') && !to.startsWith('db/'),
    );
    assert.deepEqual(outside, []);
  });

  it('the CLI queries no table itself: it calls operations or domain functions', () => {
    const queries = imports
      .map(({ from }) => from)
      .filter((file, i, all) => file.startsWith('cli/') && all.indexOf(file) === i)
      .filter((file) =>
        /\.(selectFrom|insertInto|updateTable|deleteFrom)\(/.test(
          readFileSync(path.join(srcDir, file), 'utf8'),
        ),
      );
    assert.deepEqual(queries, []);
  });

  it('one owner per queue table: every write to webhook_deliveries is in webhooks/delivery/queue/', () => {
    const writers = [...new Set(imports.map(({ from }) => from))].filter((file) =>
      writesTable(readFileSync(path.join(srcDir, file), 'utf8'), 'webhook_deliveries'),
    );
    assert.deepEqual(
      writers.filter((file) => !file.startsWith('webhooks/delivery/queue/')),
      [],
    );
    // One file per transition: enqueue, claim (both databases), lease, settle, cancel, requeue, purge.
    assert.ok(writers.length >= 7, writers.join(', '));
    // Deliberately broken: a second writer would be found, through Kysely or in raw SQL.
    assert.ok(writesTable("await db\n  .updateTable('webhook_deliveries')", 'webhook_deliveries'));
    assert.ok(writesTable('sql`update webhook_deliveries d set status = v.status`', 'webhook_deliveries'));
    assert.ok(writesTable('sql`insert into webhook_deliveries (id)`', 'webhook_deliveries'));
    assert.ok(!writesTable("db.selectFrom('webhook_deliveries')", 'webhook_deliveries'));
    assert.ok(!writesTable('sql`select id from webhook_deliveries d`', 'webhook_deliveries'));
  });

  it('one owner per queue table: every write to books_jobs (imports, exports, extractions) is in books/jobs-queue.ts', () => {
    const writers = [...new Set(imports.map(({ from }) => from))].filter((file) =>
      writesTable(readFileSync(path.join(srcDir, file), 'utf8'), 'books_jobs'),
    );
    assert.deepEqual(writers, ['books/jobs-queue.ts']);
    assert.ok(!writesTable("db.updateTable('books_jobs_x')", 'books_jobs'));
  });

  it('the checks catch a broken layout (deliberately wrong examples)', () => {
    const broken: Import[] = [
      { from: 'invoicing/send.ts', to: 'services.ts' },
      { from: 'webhooks/fan-out.ts', to: 'jobs/runner.ts' },
      { from: 'books/parse.ts', to: 'http/app.ts' },
      { from: 'unit/with-unit.ts', to: 'invoicing/send.ts' },
      { from: 'db/migrations/0009.ts', to: 'webhooks/keys.ts' },
      { from: 'events/recorder.ts', to: 'operations/context.ts' },
      { from: 'operations/context.ts', to: 'events/recorder.ts' },
      { from: 'invoicing/run.ts', to: 'unit/with-unit.ts' },
    ];
    assert.deepEqual(layeringViolations(broken), [
      'invoicing/send.ts imports services.ts',
      'webhooks/fan-out.ts imports jobs/runner.ts',
      'books/parse.ts imports http/app.ts',
      'unit/with-unit.ts imports invoicing/send.ts',
      'db/migrations/0009.ts imports webhooks/keys.ts',
      'events/recorder.ts imports operations/context.ts',
    ]);
    assert.deepEqual(roomCycles(broken), [
      ['invoicing', 'unit'],
      ['events', 'operations'],
    ]);
    assert.deepEqual(
      broken.filter(({ from, to }) => from.startsWith('db/migrations/') && !to.startsWith('db/')).length,
      1,
    );
  });
});
