export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  windowSeconds: number;
  /** Set when the request was refused. */
  retryAfterSeconds?: number;
}

/**
 * Token bucket per credential, refilled continuously at `requests / window`.
 * Kept in memory per process (see docs/decisions.md): N processes allow up to N times the rate.
 */
export class RateLimiter {
  readonly #buckets = new Map<string, { tokens: number; updatedMs: number }>();
  readonly #requests: number;
  readonly #windowMs: number;

  constructor(options: { requests: number; windowMs: number }) {
    this.#requests = options.requests;
    this.#windowMs = options.windowMs;
  }

  take(credentialId: string, nowMs: number = Date.now()): RateLimitState {
    const ratePerMs = this.#requests / this.#windowMs;
    const bucket = this.#buckets.get(credentialId) ?? { tokens: this.#requests, updatedMs: nowMs };
    bucket.tokens = Math.min(this.#requests, bucket.tokens + (nowMs - bucket.updatedMs) * ratePerMs);
    bucket.updatedMs = nowMs;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.#buckets.set(credentialId, bucket);
    if (this.#buckets.size > 100_000) this.#evictFull(nowMs, ratePerMs);
    const state: RateLimitState = {
      limit: this.#requests,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((this.#requests - bucket.tokens) / ratePerMs / 1000),
      windowSeconds: Math.ceil(this.#windowMs / 1000),
    };
    if (!allowed) state.retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerMs / 1000));
    return state;
  }

  /** Buckets that have refilled completely carry no information; dropping them bounds memory. */
  #evictFull(nowMs: number, ratePerMs: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens + (nowMs - bucket.updatedMs) * ratePerMs >= this.#requests) this.#buckets.delete(key);
    }
  }
}
