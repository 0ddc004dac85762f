import type { Redis } from 'ioredis';
import { AppError } from '../contract/errors.ts';
import type { RateLimitState } from '../lib/rate-limit.ts';
import { bucketState, type CredentialRateLimiter, type RateLimitSettings } from './shared-rate-limit.ts';

/**
 * The token bucket as one Lua script, so a take is one atomic round trip whatever the number of
 * processes. Redis's own clock (TIME) is the one they share. A bucket untouched for a whole
 * window is full again, so it may expire then.
 */
const TAKE = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local b = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(b[1]) or capacity
local ts = tonumber(b[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - ts) * rate)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {tostring(tokens), allowed}
`;

/** Buckets in Redis (`REDIS_URL`); the client connects on the first request, not at start. */
export class RedisRateLimiter implements CredentialRateLimiter {
  readonly #url: string;
  readonly #settings: RateLimitSettings;
  readonly #prefix: string;
  #client: Promise<Redis> | undefined;

  constructor(url: string, settings: RateLimitSettings, prefix = 'accounting:rate:') {
    this.#url = url;
    this.#settings = settings;
    this.#prefix = prefix;
  }

  async take(credentialId: string): Promise<RateLimitState> {
    // ioredis loads on first use: a process without REDIS_URL never pays for it.
    this.#client ??= import('ioredis').then(
      ({ Redis }) =>
        new Redis(this.#url, {
          // Fail fast: a request must not hang while Redis is away; it gets a 503 instead.
          maxRetriesPerRequest: 1,
          connectTimeout: 2000,
          lazyConnect: false,
        }),
    );
    const client = await this.#client;
    const { requests, windowMs } = this.#settings;
    let reply: unknown;
    try {
      reply = await client.eval(
        TAKE,
        1,
        `${this.#prefix}${credentialId}`,
        String(requests),
        String(requests / windowMs),
        String(Math.ceil(windowMs)),
      );
    } catch {
      throw new AppError('service_unavailable', 'The rate limit store is unavailable; retry shortly.', {
        retryAfterSeconds: 1,
      });
    }
    if (!Array.isArray(reply) || reply.length !== 2) throw new Error('unexpected rate limit reply');
    return bucketState(this.#settings, Number(reply[0]), Number(reply[1]) === 1);
  }

  async close(): Promise<void> {
    await (await this.#client)?.quit();
  }
}
