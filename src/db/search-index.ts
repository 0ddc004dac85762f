import { sql } from 'kysely';
import type { Db } from './database.ts';
import { createTrigramIndexes, TRIGRAM_INDEXES } from './migrations/0018-search-index.ts';

export interface SearchIndexState {
  indexed: boolean;
  /** Why not, for the start-up log line: what the operator can do about it. */
  reason?: string;
}

/**
 * Whether name search has its trigram index (docs/decisions.md 265). Migration 0018 skips the
 * PostgreSQL indexes when pg_trgm cannot be created; this tries again at every start (an operator
 * may have installed the extension since) and otherwise reports the fallback, so a slow search is
 * never a mystery. SQLite's FTS5 table is always created by the migration.
 */
export async function ensureSearchIndex(db: Db): Promise<SearchIndexState> {
  if (db.dialect === 'sqlite') return { indexed: true };
  const present = await sql<{ n: string | number }>`select count(*) as n from pg_indexes
    where schemaname = current_schema() and indexname in (${sql.join(TRIGRAM_INDEXES)})`.execute(db.kysely);
  if (Number(present.rows[0]?.n ?? 0) === TRIGRAM_INDEXES.length) return { indexed: true };
  try {
    await sql`create extension if not exists pg_trgm`.execute(db.kysely);
    await createTrigramIndexes(db.kysely);
    return { indexed: true };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      indexed: false,
      reason: `the pg_trgm extension could not be created (${detail}); contractor name search scans instead of using an index. Run "create extension pg_trgm" as a user allowed to (docs/deployment.md), then restart.`,
    };
  }
}
