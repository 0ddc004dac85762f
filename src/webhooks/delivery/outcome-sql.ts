// The statements of an outcome batch (outcome.ts decides what they do): the endpoints' counters,
// the attempt log rows, and on PostgreSQL all of a batch's writes folded into one statement.
// SQL templates, not query builders: building and compiling a builder per batch cost more CPU than
// running the statement (issue 16).
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { inIdList, organizationColumn } from './queue.ts';

type Dialect = Db['dialect'];

/** An endpoint's counters as a batch's UPDATE left them, or as they were before it. */
export interface EndpointCounters {
  id: string;
  failure_count: number | string;
  last_success_at: string | Date | null;
}

/** Endpoints whose counters move the same way: reset to `failures`, or raised by `failures`. */
export interface CounterGroup {
  reset: boolean;
  failures: number;
  ids: string[];
  organizationIds: string[];
}

/**
 * The counters of the batch's endpoints before it, read under a row lock on PostgreSQL in id order
 * (every batch locks its endpoints in one order, so two workers' batches never deadlock; the lock
 * comes before any delivery row is touched, the order every writer of both keeps).
 */
export async function lockEndpoints(
  db: Kysely<Database>,
  dialect: Dialect,
  ids: readonly string[],
): Promise<EndpointCounters[]> {
  const lock = dialect === 'postgres' ? sql` order by id for no key update` : sql``;
  const { rows } = await sql<EndpointCounters>`select id, failure_count, last_success_at
    from webhook_endpoints where ${inIdList(dialect, sql`id`, ids)}${lock}`.execute(db);
  return rows;
}

/** One UPDATE per counter group; it returns the counters it left. */
export function counterUpdate(
  dialect: Dialect,
  group: CounterGroup,
  nowIso: string,
): RawBuilder<EndpointCounters> {
  const set = group.reset
    ? sql`failure_count = ${group.failures}, last_success_at = ${nowIso}`
    : sql`failure_count = failure_count + ${group.failures}`;
  return sql<EndpointCounters>`update webhook_endpoints set ${set}, last_delivery_at = ${nowIso}
    where ${inIdList(dialect, sql`id`, group.ids)}
      and ${inIdList(dialect, organizationColumn(dialect), group.organizationIds)}
    returning id, failure_count, last_success_at`;
}

/** A row of the attempt log, in the column order of attemptsInsert. */
export type AttemptRow = readonly [
  id: string,
  organizationId: string,
  deliveryId: string,
  endpointId: string,
  attemptNumber: number,
  startedAt: string,
  durationMs: number,
  statusCode: number | null,
  outcome: 'success' | 'failure',
  errorClass: string | null,
  errorMessage: string | null,
  responseExcerpt: string,
  createdAt: string,
];

/** One multi-row INSERT of the batch's attempt log rows. */
export function attemptsInsert(rows: readonly AttemptRow[]): RawBuilder<never> {
  return sql<never>`insert into webhook_attempts (id, organization_id, delivery_id, endpoint_id,
      attempt_number, started_at, duration_ms, status_code, outcome, error_class, error_message,
      response_excerpt, created_at)
    values ${sql.join(rows.map((row) => sql`(${sql.join(row)})`))}`;
}

/**
 * PostgreSQL: the counters, the deliveries' moves and the attempt rows in ONE statement (one round
 * trip instead of one per statement), after lockEndpoints took the endpoint rows. Data-modifying
 * WITH clauses all run to completion, in no set order among themselves, which is safe here: the
 * endpoint rows are already ours and the delivery rows are locked by nothing that waits for an
 * endpoint we hold without holding it first. Returns what each UPDATE returned, by kind.
 */
export async function writeBatchInOneStatement(
  db: Kysely<Database>,
  counters: readonly RawBuilder<EndpointCounters>[],
  settles: readonly RawBuilder<{ id: string }>[],
  attempts: RawBuilder<never>,
): Promise<{ counters: EndpointCounters[]; moved: Set<string> }> {
  const clauses = [
    ...counters.map((query, i) => sql`${sql.id(`c${i}`)} as (${query})`),
    ...settles.map((query, i) => sql`${sql.id(`s${i}`)} as (${query})`),
    sql`a as (${attempts})`,
  ];
  // Typed nulls: the kinds' rows share one column list.
  const selects = [
    ...counters.map(
      (_, i) => sql`select 'c' as kind, id, failure_count, last_success_at from ${sql.id(`c${i}`)}`,
    ),
    ...settles.map(
      (_, i) =>
        sql`select 's' as kind, id, null::integer as failure_count, null::timestamptz as last_success_at from ${sql.id(`s${i}`)}`,
    ),
  ];
  if (selects.length === 0) {
    await sql`with ${sql.join(clauses)} select 1`.execute(db);
    return { counters: [], moved: new Set() };
  }
  const { rows } = await sql<EndpointCounters & { kind: 'c' | 's' }>`with ${sql.join(clauses)}
    ${sql.join(selects, sql` union all `)}`.execute(db);
  const result = { counters: [] as EndpointCounters[], moved: new Set<string>() };
  for (const row of rows) {
    if (row.kind === 'c') result.counters.push(row);
    else result.moved.add(row.id);
  }
  return result;
}
