// The last step of a delivery: one POST over a connection pinned to already-vetted addresses.
import { isIP } from 'node:net';
import type { buildConnector } from 'undici';
import { leasePool } from './connection-pool.ts';
import type { DeliveryRequest } from './safe-client.ts';
import { undici } from './undici.ts';

/** Characters of a receiver's answer kept in the delivery log. */
export const EXCERPT_CHARS = 1024;
// A UTF-8 character takes at most 4 bytes, so this many bytes always hold the first 1024 characters.
const EXCERPT_BYTES = EXCERPT_CHARS * 4;
// Errors that mean "this address does not answer", after which the next vetted address is tried.
const FALLBACK_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
// Framing and routing headers belong to the client; a caller's Host could also pick another vhost.
const RESERVED_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export type PinnedOptions = {
  timeoutMs: number;
  maxResponseBytes: number;
  signal: AbortSignal;
  /** Trust anchors replacing the system ones (tests); certificates are always verified. */
  ca?: string;
  onAddress?: (address: string) => void;
};

export type PinnedResponse = { status: number; body: Buffer; truncated: boolean };

function pinnedConnector(
  addresses: readonly string[],
  url: URL,
  opts: Pick<PinnedOptions, 'timeoutMs' | 'ca' | 'onAddress'>,
): buildConnector.connector {
  // Certificates are checked against the URL's own name; an IP-literal URL sends no server name.
  const name = url.hostname.replace(/\.$/, '');
  const servername = isIP(name) === 0 && !name.startsWith('[') ? name : undefined;
  const base = undici().buildConnector({
    timeout: opts.timeoutMs,
    rejectUnauthorized: true,
    ...(opts.ca === undefined ? {} : { ca: opts.ca }),
    // Only IP addresses reach the connector; a lookup here would be a second, unvetted resolution.
    lookup: (hostname, _options, callback) => callback(new Error(`refused DNS lookup of ${hostname}`), '', 4),
  });
  return (options, callback) => {
    const attempt = (index: number, first?: { error: Error; address: string }): void => {
      const address = addresses[index] ?? '';
      opts.onAddress?.(address);
      base({ ...options, hostname: address, servername }, (...args) => {
        if (args[0] === null) return callback(...args);
        const firstFailure = first ?? { error: args[0], address };
        if (FALLBACK_CODES.has(codeOf(args[0])) && index + 1 < addresses.length)
          return attempt(index + 1, firstFailure);
        // Report the first address's error: with localhost, 127.0.0.1's refusal says more than ::1's.
        opts.onAddress?.(firstFailure.address);
        callback(firstFailure.error, null);
      });
    };
    attempt(0);
  };
}

/**
 * Sends one POST to `url` over a connection to one of `addresses` (tried in order while they refuse
 * connections). The addresses MUST already be vetted: this is deliver()'s last step, exported so
 * that tests can exercise TLS (server name, certificate checks) on loopback. Callers use deliver().
 */
export async function sendPinned(
  url: URL,
  addresses: readonly string[],
  request: Omit<DeliveryRequest, 'url'>,
  opts: PinnedOptions,
): Promise<PinnedResponse> {
  // A kept connection to exactly these vetted addresses is reused (connection-pool.ts).
  const lease = leasePool(
    { origin: url.origin, addresses, ca: opts.ca, headersTimeoutMs: opts.timeoutMs },
    (onAddress) => pinnedConnector(addresses, url, { timeoutMs: opts.timeoutMs, ca: opts.ca, onAddress }),
  );
  try {
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([key]) => !RESERVED_HEADERS.has(key.toLowerCase())),
    );
    const path = `${url.pathname}${url.search}`;
    const { signal } = opts;
    const { statusCode, body } = await lease.pool.request({
      path,
      method: 'POST',
      headers,
      body: request.body,
      signal,
    });
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let read = 0;
    for await (const chunk of body) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      const take = Math.min(bytes.length, opts.maxResponseBytes - read);
      read += take;
      const piece = bytes.subarray(0, Math.min(take, EXCERPT_BYTES - keptBytes));
      kept.push(piece);
      keptBytes += piece.length;
      // Leaving the loop destroys the body stream, and undici the socket it came on.
      if (take < bytes.length) return { status: statusCode, body: Buffer.concat(kept), truncated: true };
    }
    return { status: statusCode, body: Buffer.concat(kept), truncated: false };
  } finally {
    const address = lease.address();
    if (address !== undefined) opts.onAddress?.(address);
    lease.release();
  }
}

export function codeOf(error: unknown): string {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    if ('code' in current && typeof current.code === 'string') return current.code;
    current = current.cause;
  }
  return '';
}
