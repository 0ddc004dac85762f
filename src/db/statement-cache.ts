import type { Database as BetterSqliteDatabase, Statement } from 'better-sqlite3';

/** Kysely's `SqliteDatabase`, with better-sqlite3's own statement type (which says `readonly`). */
export interface CachingSqliteDatabase {
  close(): void;
  prepare(sql: string): Statement;
}

/**
 * better-sqlite3 behind Kysely with prepared statements reused: Kysely's SQLite driver calls
 * `prepare` for every query, and preparing cost 13-18 % of a read's CPU (docs/benchmarks.md).
 * The SQL text is the key (parameters are bound per run); a small LRU bounds the memory, since
 * queries with IN-lists of varying length produce many texts. Reusing a statement is safe here:
 * Kysely runs them to completion synchronously (`all`/`run`), one at a time on the one connection,
 * and SQLite re-prepares a statement by itself after a schema change.
 */
export function cachingSqliteDatabase(db: BetterSqliteDatabase, capacity = 256): CachingSqliteDatabase {
  const statements = new Map<string, Statement>();
  return {
    close: () => {
      statements.clear();
      db.close();
    },
    prepare(sql: string): Statement {
      const cached = statements.get(sql);
      if (cached) {
        // Most recently used last, so the first key is the one to evict.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = db.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > capacity) {
        const oldest = statements.keys().next();
        if (!oldest.done) statements.delete(oldest.value);
      }
      return statement;
    },
  };
}
