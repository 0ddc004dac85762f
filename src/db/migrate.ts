import { type Migration, type MigrationResultSet, Migrator } from 'kysely';
import type { Db } from './database.ts';
import { columnTypes } from './migrations/column-types.ts';
import { MIGRATIONS } from './migrations/index.ts';

/**
 * Brings the schema up to date. Safe to call from several processes at once:
 * Kysely's migrator takes a lock table (an advisory lock on PostgreSQL).
 */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const types = columnTypes(db.dialect);
  const migrations: Record<string, Migration> = {};
  for (const [name, migration] of Object.entries(MIGRATIONS)) {
    migrations[name] = { up: (kysely) => migration.up(kysely, types) };
  }
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return result;
}
