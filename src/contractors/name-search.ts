import { type Kysely, type RawBuilder, sql } from 'kysely';
import { Type } from 'typebox';
import type { DialectName } from '../db/database.ts';
import { TRIGRAM_INDEXES } from '../db/migrations/0018-search-index.ts';
import type { Database } from '../db/schema.ts';

/** Trigram indexes (FTS5 trigram, pg_trgm) match substrings of at least three characters. */
export const TRIGRAM = 3;
/** A query shorter than a trigram looks at this many of the newest contractors (decision 265). */
export const SHORT_QUERY_WINDOW = 2_000;

/** The `query` input of contractors.list and contractorOps.directory.list, matched by nameFilter. */
export const NameQuery = Type.String({
  maxLength: 200,
  description: `Filter on display or legal name: a case-insensitive substring, up to 200 characters. One or two characters search the ${SHORT_QUERY_WINDOW.toLocaleString('en-US')} newest contractors; three or more search all.`,
});

/** SQLite: a phrase with at least this many matches is common; walking newest first finds a page sooner. */
const COMMON_MATCHES = 2_000;

export interface NameFilterLimits {
  commonMatches: number;
  shortWindow: number;
}

/** A name search: the condition on `c`, and for a short query the window it applies to. */
export interface NameFilter {
  where: RawBuilder<boolean>;
  /** Only this many of the organization's newest contractors are looked at (contractorPageIds). */
  newest?: number;
}

/**
 * The `query` filter on `c` (contractors.list, contractorOps.directory.list): a case-insensitive
 * substring of `display_name` or `legal_name` (docs/decisions.md 265, 295).
 * - Three characters or more, PostgreSQL: served by the pg_trgm GIN indexes, through
 *   `postgresTrigramFilter` (a common word of the query is left out of the index condition).
 * - Three characters or more, SQLite: the planner cannot weigh FTS5, so the FTS5 trigram matches
 *   are read once, up to `commonMatches` of them (a quoted phrase is a literal substring, so `%`
 *   and `_` need no escaping): fewer, the page comes from those rows; as many, the phrase is common
 *   and the LIKE filter on the newest-first walk fills a page after a few rows.
 * - One or two characters have no trigram: the substring test over the `shortWindow` newest
 *   contractors, so a rare pair costs a bounded walk instead of reading every row.
 */
export async function nameFilter(
  db: Kysely<Database>,
  query: string,
  dialect: DialectName,
  limits: NameFilterLimits = { commonMatches: COMMON_MATCHES, shortWindow: SHORT_QUERY_WINDOW },
): Promise<NameFilter> {
  const lowered = query.toLowerCase();
  if ([...query].length < TRIGRAM)
    return { where: containsFilter(lowered, dialect), newest: limits.shortWindow };
  if (dialect === 'postgres') return { where: await postgresTrigramFilter(db, lowered) };
  const phrase = `"${query.replaceAll('"', '""')}"`;
  // One JSON array, not a row each: a common phrase's 2,000 rows cost more as JavaScript objects
  // than the FTS5 read itself.
  const matches = await sql<{
    n: number;
    rowids: string;
  }>`select count(*) as n, json_group_array(rowid) as rowids
    from (select rowid from contractor_search where contractor_search match ${phrase} limit ${limits.commonMatches})`.execute(
    db,
  );
  const found = matches.rows[0];
  if (!found || Number(found.n) >= limits.commonMatches) return { where: likeFilter(lowered) };
  return {
    where: sql<boolean>`c.id in (select k.contractor_id from contractor_search_rows k
    where k.id in (select value from json_each(${found.rowids})))`,
  };
}

/** `lower(name) LIKE '%query%'` on either name; the trigram indexes serve it on PostgreSQL. */
function likeFilter(lowered: string): RawBuilder<boolean> {
  const pattern = likePattern(lowered);
  return sql<boolean>`(lower(c.display_name) like ${pattern} escape '\\' or lower(c.legal_name) like ${pattern} escape '\\')`;
}

/** SQLite has no default escape character while PostgreSQL uses backslash: say it explicitly. */
function likePattern(lowered: string): string {
  return `%${lowered.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The same test as `likeFilter`, in the form cheapest to evaluate row by row (the short-query
 * walk), which no index can serve (the walk does not want one):
 * - PostgreSQL: `strpos`, a plain substring search. For a query of ASCII characters other than
 *   `i` and `k`, the names are lower-cased as in the C locale (ASCII letters only, about half the
 *   cost of the database's locale-aware `lower()`): the only characters whose lower case is ASCII
 *   are ASCII letters, U+0130 (`İ`, to `i`, or `i` and a combining dot under ICU) and U+212A
 *   (Kelvin sign, to `k`), and locale rules (Turkish, Lithuanian) only ever produce `i`, so for
 *   such a query both give the same answer. Any other query uses `lower()` itself.
 * - SQLite: LIKE without `lower()`: SQLite's LIKE already ignores ASCII case, the only case its
 *   `lower()` folds.
 */
function containsFilter(lowered: string, dialect: DialectName): RawBuilder<boolean> {
  if (dialect === 'postgres') {
    const asciiFolds = /^\p{ASCII}*$/u.test(lowered) && !/[ik]/.test(lowered);
    const fold = (column: RawBuilder<string>) =>
      asciiFolds ? sql`lower(${column} collate "C")` : sql`lower(${column})`;
    return sql<boolean>`(strpos(${fold(sql`c.display_name`)}, ${lowered}) > 0 or strpos(${fold(sql`c.legal_name`)}, ${lowered}) > 0)`;
  }
  const pattern = likePattern(lowered);
  return sql<boolean>`(c.display_name like ${pattern} escape '\\' or c.legal_name like ${pattern} escape '\\')`;
}

/**
 * A word of the query found in at least this share of the names is common: its trigrams are in
 * so many rows that reading their posting lists costs more than rechecking the rows the query's
 * other words select.
 */
const COMMON_WORD_SHARE = 0.02;

/**
 * PostgreSQL, three characters or more. GIN reads the posting list of each trigram of the
 * pattern for every candidate row, and a common word's trigrams are in nearly every row: at
 * 1 M contractors named "Contractor <n>", `%contractor 500000 %` read 2,400 index pages (30 ms)
 * where `%500000 %` read 32 (decision 295). So the words that PostgreSQL's own statistics show in
 * at least COMMON_WORD_SHARE of the names are left out of the index condition when the query has
 * another word of at least three characters, and the whole query is then checked on the rows the
 * rare words select (`containsFilter`: `strpos`, which no index serves, so the planner does not
 * put it back). With
 * no statistics (never analyzed, or not visible to this role), no common word or no rare one, the
 * plain LIKE stays.
 */
async function postgresTrigramFilter(db: Kysely<Database>, lowered: string): Promise<RawBuilder<boolean>> {
  const columns = await nameStatistics(db);
  if (columns.length === 0) return likeFilter(lowered);
  const words = [...new Set(lowered.match(/[\p{L}\p{N}]+/gu) ?? [])];
  // A word's share of one column's names; common if it is common in either column.
  const share = (column: WeightedName[], word: string) =>
    column.reduce((sum, entry) => (entry.name.includes(word) ? sum + entry.weight : sum), 0);
  const common = words.filter((word) => columns.some((column) => share(column, word) >= COMMON_WORD_SHARE));
  const indexed = words.filter((word) => [...word].length >= TRIGRAM && !common.includes(word));
  if (common.length === 0 || indexed.length === 0) return likeFilter(lowered);
  const onColumn = (column: RawBuilder<string>) =>
    sql.join(
      indexed.map((word) => sql`${column} like ${likePattern(word)} escape '\\'`),
      sql` and `,
    );
  return sql<boolean>`((${onColumn(sql`lower(c.display_name)`)}) or (${onColumn(sql`lower(c.legal_name)`)}))
    and ${containsFilter(lowered, 'postgres')}`;
}

/** A lower-cased name from PostgreSQL's statistics, and the share of rows it stands for. */
interface WeightedName {
  name: string;
  weight: number;
}

/** How long a process keeps PostgreSQL's name statistics before reading them again. */
const STATISTICS_TTL_MS = 10 * 60_000;
const statistics = new WeakMap<object, { columns: WeightedName[][]; readAt: number }>();

/**
 * What PostgreSQL's ANALYZE keeps about the trigram indexes' expressions (`pg_stats`), one list
 * per name column: each most common value with its frequency, and each histogram bound (about
 * 100 names drawn from a sample of the table) with an equal part of the rest. Read once per TTL by
 * each process. They are table-wide, not per organization, as the planner's own estimates are.
 * `pg_stats` shows only what the role may read: a role that does not own the table may see none,
 * and search then keeps the plain LIKE (slower for some queries, never different answers).
 */
async function nameStatistics(db: Kysely<Database>): Promise<WeightedName[][]> {
  const cached = statistics.get(db);
  if (cached && Date.now() - cached.readAt < STATISTICS_TTL_MS) return cached.columns;
  const result = await sql<{
    common: string[] | null;
    freqs: number[] | null;
    bounds: string[] | null;
    null_frac: number;
  }>`select most_common_vals::text::text[] as common, most_common_freqs as freqs,
      histogram_bounds::text::text[] as bounds, null_frac
    from pg_stats where schemaname = current_schema() and tablename in (${sql.join(TRIGRAM_INDEXES)})`.execute(
    db,
  );
  const columns = result.rows.map((row) => {
    const common = row.common ?? [];
    const freqs = row.freqs ?? [];
    const bounds = row.bounds ?? [];
    const rest = Math.max(0, 1 - Number(row.null_frac) - freqs.reduce((sum, freq) => sum + Number(freq), 0));
    return [
      ...common.map((name, i) => ({ name, weight: Number(freqs[i] ?? 0) })),
      ...bounds.map((name) => ({ name, weight: rest / bounds.length })),
    ];
  });
  statistics.set(db, { columns, readAt: Date.now() });
  return columns;
}

/** Tests: read the statistics again on the next search (after an ANALYZE). */
export function forgetNameStatistics(db: Kysely<Database>): void {
  statistics.delete(db);
}
