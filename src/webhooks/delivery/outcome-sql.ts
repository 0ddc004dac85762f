// The statements of an outcome batch (outcome.ts decides what they do): the endpoints' counters,
// the attempt log rows, and on PostgreSQL all of a batch's writes folded into one prepared statement.
// SQL templates, not query builders: building and compiling a builder per batch cost more CPU than
// running the statement (issue 16).
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { PREPARED } from '../../db/pg-prepared.ts';
import type { Database } from '../../db/schema.ts';
import { inIdList, organizationColumn } from './queue/settle.ts';

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
  const postgres = dialect === 'postgres';
  const lock = postgres ? sql` order by id for no key update` : sql``;
  // PostgreSQL: a named prepared statement (its text is fixed: the ids are one array parameter).
  const { rows } =
    await sql<EndpointCounters>`${sql.raw(postgres ? PREPARED : '')}select id, failure_count, last_success_at
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

/** What a batch does to one endpoint's counters: reset to `failures`, or raised by `failures`. */
export interface CounterMove {
  id: string;
  organizationId: string;
  reset: boolean;
  failures: number;
}

/**
 * PostgreSQL: the counters, the deliveries' moves and the attempt rows in ONE statement of one
 * fixed text (one round trip; a named prepared statement, planned once per connection: every
 * value travels in arrays, one element per row, so the text never changes with the batch),
 * after lockEndpoints took the endpoint rows. Data-modifying WITH clauses all run to completion,
 * in no set order among themselves, which is safe here: the endpoint rows are already ours and
 * the delivery rows are locked by nothing that waits for an endpoint we hold without holding it
 * first. Returns the counters as the UPDATE left them and the ids of the deliveries that moved.
 */
export async function writeBatchOnPostgres(
  db: Kysely<Database>,
  batch: {
    nowIso: string;
    counters: readonly CounterMove[];
    settle: RawBuilder<{ id: string }>;
    attempts: readonly AttemptRow[];
  },
): Promise<{ counters: EndpointCounters[]; moved: Set<string> }> {
  const { nowIso, counters, attempts } = batch;
  // Column i of the attempt rows, as one array.
  const column = (i: number) => attempts.map((row) => row[i]);
  const { rows } = await sql<EndpointCounters & { kind: 'c' | 's' }>`${sql.raw(PREPARED)}with
    c as (
      update webhook_endpoints e
      set failure_count = case when v.reset then v.failures else e.failure_count + v.failures end,
        last_success_at = case when v.reset then ${nowIso}::timestamptz else e.last_success_at end,
        last_delivery_at = ${nowIso}::timestamptz
      from unnest(${counters.map((move) => move.id)}::uuid[],
          ${counters.map((move) => move.organizationId)}::uuid[],
          ${counters.map((move) => move.reset)}::boolean[], ${counters.map((move) => move.failures)}::int[])
        as v(id, organization_id, reset, failures)
      where e.id = v.id and e.organization_id = v.organization_id
      returning e.id, e.failure_count, e.last_success_at),
    s as (${batch.settle}),
    a as (
      insert into webhook_attempts (id, organization_id, delivery_id, endpoint_id, attempt_number,
        started_at, duration_ms, status_code, outcome, error_class, error_message, response_excerpt,
        created_at)
      select * from unnest(${column(0)}::uuid[], ${column(1)}::uuid[], ${column(2)}::uuid[],
        ${column(3)}::uuid[], ${column(4)}::int[], ${column(5)}::timestamptz[], ${column(6)}::int[],
        ${column(7)}::int[], ${column(8)}::text[], ${column(9)}::text[], ${column(10)}::text[],
        ${column(11)}::text[], ${column(12)}::timestamptz[]))
    select 'c' as kind, id, failure_count, last_success_at from c
    union all
    select 's' as kind, id, null::integer as failure_count, null::timestamptz as last_success_at from s`.execute(
    db,
  );
  const result = { counters: [] as EndpointCounters[], moved: new Set<string>() };
  for (const row of rows) {
    if (row.kind === 'c') result.counters.push(row);
    else result.moved.add(row.id);
  }
  return result;
}
