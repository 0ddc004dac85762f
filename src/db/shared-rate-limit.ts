import { performance } from 'node:perf_hooks';
import { type Kysely, sql } from 'kysely';
import { RateLimiter, type RateLimitState } from '../lib/rate-limit.ts';
import type { Db } from './database.ts';
import { RedisRateLimiter } from './redis-rate-limit.ts';
import type { Database } from './schema.ts';

/** The credential limiter of the operation pipeline, whatever keeps its buckets. */
export interface CredentialRateLimiter {
  take(credentialId: string): Promise<RateLimitState>;
}

export interface RateLimitSettings {
  requests: number;
  windowMs: number;
  /** PostgreSQL: how long tokens a process reserved ahead stay spendable (default 1 s; tests lengthen it). */
  reserveMs?: number;
}

/**
 * Where the buckets live: Redis when `REDIS_URL` is set, else PostgreSQL (shared by every process
 * on the database) or, on SQLite, this process's memory (an embedded database serves one machine;
 * decisions 9 and 147).
 */
export function createCredentialRateLimiter(
  db: Db,
  settings: RateLimitSettings,
  redisUrl?: string,
): CredentialRateLimiter {
  if (redisUrl) return new RedisRateLimiter(redisUrl, settings);
  if (db.dialect === 'postgres') return new PostgresRateLimiter(db.kysely, settings);
  const local = new RateLimiter(settings);
  return { take: async (credentialId) => local.take(credentialId) };
}

/** Turns the bucket's tokens after a take into the state the pipeline reports. */
export function bucketState(settings: RateLimitSettings, tokens: number, allowed: boolean): RateLimitState {
  const ratePerMs = settings.requests / settings.windowMs;
  const state: RateLimitState = {
    limit: settings.requests,
    remaining: Math.max(0, Math.floor(tokens)),
    resetSeconds: Math.ceil((settings.requests - tokens) / ratePerMs / 1000),
    windowSeconds: Math.ceil(settings.windowMs / 1000),
  };
  if (!allowed) state.retryAfterSeconds = Math.max(1, Math.ceil((1 - tokens) / ratePerMs / 1000));
  return state;
}

/** Tokens a process may hold for itself: a hundredth of the limit (none below 100 requests). */
const RESERVE_SHARE = 100;
/** Unspent reserved tokens lapse after this long, so a burst stays within the limit's window. */
const RESERVE_MS = 1_000;

interface Reserve {
  /** Tokens taken from the shared bucket and not yet spent by this process. */
  left: number;
  /** The shared bucket's tokens right after the reservation. */
  shared: number;
  at: number;
  /** Tokens to ask for next time: doubles while reservations run out fast, back to 1 when not. */
  next: number;
}

/**
 * The same token bucket as the in-memory one, one row per credential, taken in one statement: an
 * upsert that refills from the elapsed time, takes tokens when there are some and says how many
 * it granted. The row lock of ON CONFLICT DO UPDATE serializes concurrent takes from any process,
 * and the database's clock (statement_timestamp) is the one clock all processes share.
 *
 * A busy credential costs one statement per request only at first: a process that spends its
 * tokens quickly reserves several at once (doubling up to a hundredth of the limit, decision 274)
 * and spends them without a round trip for at most a second. Reserved tokens are taken from the
 * shared bucket, so all processes together still never exceed the limit; an unspent reservation
 * lapses (a process may refuse slightly early, never admit too much). Limits under 100 requests
 * are counted one statement per request, exactly as before.
 */
class PostgresRateLimiter implements CredentialRateLimiter {
  readonly #db: Kysely<Database>;
  readonly #settings: RateLimitSettings;
  readonly #maxReserve: number;
  readonly #reserveMs: number;
  readonly #reserves = new Map<string, Reserve>();

  constructor(db: Kysely<Database>, settings: RateLimitSettings) {
    this.#db = db;
    this.#settings = settings;
    this.#maxReserve = Math.max(1, Math.floor(settings.requests / RESERVE_SHARE));
    this.#reserveMs = settings.reserveMs ?? RESERVE_MS;
  }

  async take(credentialId: string): Promise<RateLimitState> {
    const now = performance.now();
    const reserve = this.#reserves.get(credentialId);
    if (reserve && reserve.left >= 1 && now - reserve.at < this.#reserveMs) {
      reserve.left -= 1;
      return bucketState(this.#settings, reserve.shared + reserve.left, true);
    }
    // Spent within its second: ask for twice as many next time; lapsed unspent: back to one.
    const want =
      reserve && reserve.left < 1 && now - reserve.at < this.#reserveMs
        ? Math.min(this.#maxReserve, reserve.next * 2)
        : 1;
    const { tokens, granted } = await this.#takeShared(credentialId, want);
    // Another request of this credential may have reserved meanwhile: its tokens are kept (and
    // spent first when the shared bucket had none left).
    const latest = this.#reserves.get(credentialId);
    const carry = latest && latest.left >= 1 && now - latest.at < this.#reserveMs ? latest.left : 0;
    if (granted < 1) {
      if (latest && carry >= 1) {
        latest.left -= 1;
        return bucketState(this.#settings, latest.shared + latest.left, true);
      }
      return bucketState(this.#settings, tokens, false);
    }
    this.#reserves.set(credentialId, { left: carry + granted - 1, shared: tokens, at: now, next: want });
    if (this.#reserves.size > 10_000) this.#dropLapsed(now);
    return bucketState(this.#settings, tokens + granted - 1, true);
  }

  #dropLapsed(now: number): void {
    for (const [key, reserve] of this.#reserves) {
      if (now - reserve.at >= this.#reserveMs) this.#reserves.delete(key);
    }
  }

  /** Takes up to `want` tokens (at least one when there is one); how many, and what is left. */
  async #takeShared(credentialId: string, want: number): Promise<{ tokens: number; granted: number }> {
    const capacity = this.#settings.requests;
    const ratePerMs = capacity / this.#settings.windowMs;
    const now = sql`(extract(epoch from statement_timestamp()) * 1000)::double precision`;
    const refilled = sql`least(${capacity}::double precision, b.tokens + (${now} - b.updated_ms) * ${ratePerMs}::double precision)`;
    const grant = sql`least(${want}::double precision, floor(${refilled}))`;
    const result = await sql<{ tokens: number; granted: number }>`
      insert into rate_limit_buckets as b (bucket, tokens, updated_ms, allowed, granted)
      values (${credentialId}, ${capacity}::double precision - ${Math.min(want, capacity)}::double precision,
              ${now}, true, ${Math.min(want, capacity)})
      on conflict (bucket) do update set
        tokens = case when ${refilled} >= 1 then ${refilled} - ${grant} else ${refilled} end,
        allowed = ${refilled} >= 1,
        granted = case when ${refilled} >= 1 then ${grant}::integer else 0 end,
        updated_ms = ${now}
      returning tokens, granted`.execute(this.#db);
    const row = result.rows[0];
    if (!row) throw new Error('rate limit upsert returned no row');
    return { tokens: Number(row.tokens), granted: Number(row.granted) };
  }
}
