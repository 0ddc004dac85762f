// Keep-alive connections for webhook deliveries (issue 16, part 3). Opening a connection (and a TLS
// session) per attempt cost about 15 % of a delivery worker's CPU. Connections are now kept for a
// few seconds and reused, per origin AND per set of vetted addresses: every delivery still resolves
// and vets its target first (safe-client.ts), and only a pool made for exactly those addresses
// serves it, so a DNS change or a policy refusal never rides on an old connection.
import { createHash } from 'node:crypto';
import type { buildConnector, Pool } from 'undici';
import { stacklessError, undici } from './undici.ts';

/** An idle pool is closed after this long (shorter than the 5 s or more receivers keep an idle connection, so we close first). */
export const KEEP_ALIVE_MS = 2_000;
/** Connections per pool: deliveries to one receiver in flight at once. */
const CONNECTIONS_PER_POOL = 8;
/** Pools kept at most; past this the one idle longest is closed first. */
const MAX_POOLS = 256;

interface Entry {
  pool: Pool;
  /** The vetted address the pool last tried to connect to (for the delivery log). */
  readonly address: string | undefined;
  inFlight: number;
  lastUsed: number;
  idleTimer: NodeJS.Timeout | undefined;
}

const pools = new Map<string, Entry>();

/**
 * The reason handed to undici when we close a pool. Without one, undici builds a
 * ClientDestroyedError, stack trace and all, on every close only to discard it; this one is built
 * once, without a stack (a request still in flight at shutdown reports its code).
 */
const POOL_CLOSED = stacklessError('webhook connection pool closed', { code: 'WEBHOOK_POOL_CLOSED' });

export interface PoolLease {
  pool: Pool;
  address(): string | undefined;
  /** Ends this delivery's use; an exchange cut short (timeout, answer too long) has already had
   * its socket destroyed by undici, so the pool keeps only connections that finished cleanly. */
  release(): void;
}

export interface PoolKey {
  origin: string;
  addresses: readonly string[];
  ca: string | undefined;
  headersTimeoutMs: number;
}

function keyOf(key: PoolKey): string {
  const ca = key.ca === undefined ? '' : createHash('sha256').update(key.ca).digest('hex');
  return `${key.origin}|${key.addresses.join(',')}|${ca}|${key.headersTimeoutMs}`;
}

function close(key: string, entry: Entry): void {
  clearTimeout(entry.idleTimer);
  if (pools.get(key) === entry) pools.delete(key);
  void entry.pool.destroy(POOL_CLOSED).catch(() => undefined);
}

function evictIfFull(): void {
  if (pools.size < MAX_POOLS) return;
  let oldest: [string, Entry] | undefined;
  for (const item of pools) {
    if (item[1].inFlight === 0 && (!oldest || item[1].lastUsed < oldest[1].lastUsed)) oldest = item;
  }
  if (oldest) close(oldest[0], oldest[1]);
}

/**
 * A pool for this origin and these vetted addresses, made with `connect` (the pinned connector)
 * when none is kept. The connector reports the address it reached through `onConnected`.
 */
export function leasePool(
  key: PoolKey,
  makeConnector: (onConnected: (address: string) => void) => buildConnector.connector,
): PoolLease {
  const id = keyOf(key);
  let entry = pools.get(id);
  if (!entry) {
    evictIfFull();
    let reached: string | undefined;
    const pool = new (undici().Pool)(key.origin, {
      connect: makeConnector((address) => {
        reached = address;
      }),
      connections: CONNECTIONS_PER_POOL,
      headersTimeout: key.headersTimeoutMs,
      bodyTimeout: key.headersTimeoutMs,
      keepAliveTimeout: KEEP_ALIVE_MS,
      keepAliveMaxTimeout: KEEP_ALIVE_MS,
    });
    const created: Entry = { pool, address: undefined, inFlight: 0, lastUsed: 0, idleTimer: undefined };
    Object.defineProperty(created, 'address', { get: () => reached });
    pools.set(id, created);
    entry = created;
  }
  const leased = entry;
  clearTimeout(leased.idleTimer);
  leased.idleTimer = undefined;
  leased.inFlight += 1;
  let released = false;
  return {
    pool: leased.pool,
    address: () => leased.address,
    release() {
      if (released) return;
      released = true;
      leased.inFlight -= 1;
      leased.lastUsed = Date.now();
      if (leased.inFlight === 0) {
        leased.idleTimer = setTimeout(() => close(id, leased), KEEP_ALIVE_MS);
        leased.idleTimer.unref();
      }
    },
  };
}

/** Closes every kept connection (shutdown, tests). */
export async function closeDeliveryPools(): Promise<void> {
  const entries = [...pools];
  pools.clear();
  await Promise.all(
    entries.map(async ([, entry]) => {
      clearTimeout(entry.idleTimer);
      await entry.pool.destroy(POOL_CLOSED).catch(() => undefined);
    }),
  );
}

/** How many pools are kept (tests). */
export function keptPools(): number {
  return pools.size;
}
