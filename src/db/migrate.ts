import { type Kysely, type Migration, type MigrationResultSet, Migrator, sql } from 'kysely';
import type { Db } from './database.ts';
import { columnTypes } from './migrations/column-types.ts';
import { MIGRATIONS } from './migrations/index.ts';
import type { Database } from './schema.ts';

async function runMigrator(kysely: Kysely<Database>, db: Db): Promise<MigrationResultSet> {
  const types = columnTypes(db.dialect);
  const migrations: Record<string, Migration> = {};
  for (const [name, migration] of Object.entries(MIGRATIONS)) {
    migrations[name] = { up: (k) => migration.up(k, types) };
  }
  const migrator = new Migrator({ db: kysely, provider: { getMigrations: async () => migrations } });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return result;
}

/**
 * Brings the schema up to date. Safe to call from several processes at once. On PostgreSQL
 * Kysely's migrator takes an advisory lock. On SQLite it takes no lock at all (it assumes one
 * process), so two processes starting on a fresh file would both create the same tables: the
 * whole run goes into one BEGIN IMMEDIATE transaction instead, which SQLite serializes across
 * processes (busy_timeout makes the second wait) and which rolls back as a whole on failure.
 */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  if (db.dialect !== 'sqlite') return runMigrator(db.kysely, db);
  return db.kysely.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await runMigrator(connection, db);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}
