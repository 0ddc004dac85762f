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

/**
 * The same token bucket as the in-memory one, one row per credential, taken in one statement: an
 * upsert that refills from the elapsed time, takes a token when there is one and says whether it
 * did. The row lock of ON CONFLICT DO UPDATE serializes concurrent takes from any process, and
 * the database's clock (statement_timestamp) is the one clock all processes share.
 */
class PostgresRateLimiter implements CredentialRateLimiter {
  readonly #db: Kysely<Database>;
  readonly #settings: RateLimitSettings;

  constructor(db: Kysely<Database>, settings: RateLimitSettings) {
    this.#db = db;
    this.#settings = settings;
  }

  async take(credentialId: string): Promise<RateLimitState> {
    const capacity = this.#settings.requests;
    const ratePerMs = capacity / this.#settings.windowMs;
    const now = sql`(extract(epoch from statement_timestamp()) * 1000)::double precision`;
    const refilled = sql`least(${capacity}::double precision, b.tokens + (${now} - b.updated_ms) * ${ratePerMs}::double precision)`;
    const result = await sql<{ tokens: number; allowed: boolean }>`
      insert into rate_limit_buckets as b (bucket, tokens, updated_ms, allowed)
      values (${credentialId}, ${capacity - 1}::double precision, ${now}, true)
      on conflict (bucket) do update set
        tokens = case when ${refilled} >= 1 then ${refilled} - 1 else ${refilled} end,
        allowed = ${refilled} >= 1,
        updated_ms = ${now}
      returning tokens, allowed`.execute(this.#db);
    const row = result.rows[0];
    if (!row) throw new Error('rate limit upsert returned no row');
    return bucketState(this.#settings, Number(row.tokens), row.allowed);
  }
}
