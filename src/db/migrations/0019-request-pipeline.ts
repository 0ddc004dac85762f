import { type Kysely, sql } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * What a cached credential lookup depends on (src/credentials/key-cache.ts, decision 273): a key's
 * secret, scopes, revocation and expiry, its member's role and status, its organization's
 * suspension. Triggers, not application code, record every change to those columns, so a change
 * made by any process (another `serve`, the CLI, a hand-written UPDATE) is seen:
 *
 * - SQLite: `credential_generation`, one row whose counter every such change bumps in the writing
 *   transaction; compared on every request (one row by primary key, far cheaper than the joined
 *   lookup). Processes on one file have no other channel.
 * - PostgreSQL: `NOTIFY accounting_wakeup, 'credentials:'` from the trigger, delivered at commit
 *   to every listening process, which drops its cache (the table exists, unused, so both
 *   databases have one schema; bumping it would serialize credential writes on one row).
 *
 * `last_used_at` is left out on purpose: it changes once a minute per key and says nothing about
 * whether the key may be used.
 */
const WATCHED: ReadonlyArray<{ table: string; columns: string }> = [
  {
    table: 'api_keys',
    columns: 'secret_hash, scopes, revoked_at, expires_at, member_id, organization_id, lookup_id',
  },
  { table: 'members', columns: 'role, status, organization_id' },
  { table: 'organizations', columns: 'suspended_at' },
];

export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  // How many tokens the last take of a shared rate-limit bucket granted: a busy process reserves
  // several in one statement (src/db/shared-rate-limit.ts, decision 274).
  await db.schema
    .alterTable('rate_limit_buckets')
    .addColumn('granted', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('credential_generation')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('generation', t.bigint, (c) => c.notNull())
    .execute();
  await sql`insert into credential_generation (id, generation) values (1, 0)`.execute(db);

  if (t.id === 'uuid') {
    await sql`
      create function accounting_credentials_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('accounting_wakeup', 'credentials:');
        return null;
      end $$`.execute(db);
    for (const { table, columns } of WATCHED) {
      await sql
        .raw(
          `create trigger ${table}_credentials_changed after insert or delete or update of ${columns} on ${table} ` +
            `for each statement execute function accounting_credentials_changed()`,
        )
        .execute(db);
    }
    return;
  }
  const bump = 'update credential_generation set generation = generation + 1 where id = 1;';
  for (const { table, columns } of WATCHED) {
    for (const [suffix, event] of [
      ['inserted', 'insert'],
      ['deleted', 'delete'],
      ['updated', `update of ${columns}`],
    ] as const) {
      await sql
        .raw(`create trigger ${table}_credentials_${suffix} after ${event} on ${table} begin ${bump} end`)
        .execute(db);
    }
  }
}
