import { type Kysely, sql } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/**
 * Name search backed by a trigram index (docs/decisions.md 265), so a search that matches nothing
 * no longer reads every contractor of the organization.
 *
 * PostgreSQL: pg_trgm GIN indexes on the lower-cased names, which serve the unchanged
 * `lower(name) like '%...%'` filter. pg_trgm is a trusted extension (PostgreSQL 13+): the database
 * owner may create it. `fastupdate = off`: with GIN's pending list every search also read up to
 * 4 MB of not yet merged entries (24 ms for a search with no match at 200,000 rows, 0.2 ms without).
 * Where pg_trgm cannot be created, the migration still succeeds without the
 * indexes (search keeps working as a scan) and `serve` says so at start (src/db/search-index.ts).
 *
 * SQLite: an FTS5 table with the trigram tokenizer. Its rowids come from `contractor_search_rows`
 * (an INTEGER PRIMARY KEY, so VACUUM never renumbers them, as it may a plain table's rowid); the
 * triggers keep both in step with `contractors` inside the writing transaction.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  if (t.id === 'uuid') {
    await postgres(db);
    return;
  }
  await sql`create table contractor_search_rows (
    id integer primary key,
    contractor_id text not null unique
  )`.execute(db);
  await sql`create virtual table contractor_search using fts5(display_name, legal_name, tokenize = 'trigram')`.execute(
    db,
  );
  await sql`create trigger contractor_search_insert after insert on contractors begin
    insert into contractor_search_rows (contractor_id) values (new.id);
    insert into contractor_search (rowid, display_name, legal_name)
      values ((select id from contractor_search_rows where contractor_id = new.id), new.display_name, new.legal_name);
  end`.execute(db);
  await sql`create trigger contractor_search_update after update of display_name, legal_name on contractors begin
    update contractor_search set display_name = new.display_name, legal_name = new.legal_name
      where rowid = (select id from contractor_search_rows where contractor_id = new.id);
  end`.execute(db);
  await sql`create trigger contractor_search_delete after delete on contractors begin
    delete from contractor_search where rowid = (select id from contractor_search_rows where contractor_id = old.id);
    delete from contractor_search_rows where contractor_id = old.id;
  end`.execute(db);
  // Backfill what exists.
  await sql`insert into contractor_search_rows (contractor_id) select id from contractors`.execute(db);
  await sql`insert into contractor_search (rowid, display_name, legal_name)
    select k.id, c.display_name, c.legal_name from contractor_search_rows k join contractors c on c.id = k.contractor_id`.execute(
    db,
  );
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  // The migrator runs in one transaction: a refused CREATE EXTENSION must not abort it.
  await sql`savepoint search_index`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint search_index`.execute(db);
    return;
  }
  await sql`release savepoint search_index`.execute(db);
  await createTrigramIndexes(db);
}

/** The PostgreSQL trigram indexes of name search, by name (src/db/search-index.ts checks them). */
export const TRIGRAM_INDEXES = ['contractors_display_name_trgm', 'contractors_legal_name_trgm'];

/**
 * Creates them once pg_trgm exists: here, and again at start when the migration could not
 * (src/db/search-index.ts), so both make the same indexes.
 */
export async function createTrigramIndexes<T>(db: Kysely<T>): Promise<void> {
  await sql`create index if not exists contractors_display_name_trgm
    on contractors using gin (lower(display_name) gin_trgm_ops) with (fastupdate = off)`.execute(db);
  await sql`create index if not exists contractors_legal_name_trgm
    on contractors using gin (lower(legal_name) gin_trgm_ops) with (fastupdate = off)`.execute(db);
}
