// The last step of a delivery: one POST over a connection pinned to already-vetted addresses.
import { isIP } from 'node:net';
import type { buildConnector, Dispatcher } from 'undici';
import { leasePool } from './connection-pool.ts';
import type { DeliveryRequest } from './safe-client.ts';
import { stacklessError, undici } from './undici.ts';

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
  /** Bytes of the body kept (default the excerpt's); a document fetch keeps all it reads. */
  keepBytes?: number;
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
  request: Omit<DeliveryRequest, 'url'> & { method?: 'POST' | 'GET' },
  opts: PinnedOptions,
): Promise<PinnedResponse> {
  // A kept connection to exactly these vetted addresses is reused (connection-pool.ts).
  const lease = leasePool(
    { origin: url.origin, addresses, ca: opts.ca, headersTimeoutMs: opts.timeoutMs },
    (onAddress) => pinnedConnector(addresses, url, { timeoutMs: opts.timeoutMs, ca: opts.ca, onAddress }),
  );
  try {
    let headers: Record<string, string> = request.headers;
    for (const key of Object.keys(headers)) {
      if (!RESERVED_HEADERS.has(key.toLowerCase())) continue;
      headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => !RESERVED_HEADERS.has(name.toLowerCase())),
      );
      break;
    }
    return await new Promise<PinnedResponse>((resolve, reject) => {
      lease.pool.dispatch(
        {
          path: `${url.pathname}${url.search}`,
          method: request.method ?? 'POST',
          headers,
          body: request.method === 'GET' ? null : request.body,
        },
        new AnswerReader(opts, resolve, reject),
      );
    });
  } finally {
    const address = lease.address();
    if (address !== undefined) opts.onAddress?.(address);
    lease.release();
  }
}

/** Why a connection was cut after an answer longer than maxResponseBytes (never reported). */
const TRUNCATED = stacklessError('webhook answer longer than the limit; the rest is not read');

/**
 * The answer as undici hands it over (its dispatch handler interface): the status and the first
 * EXCERPT_BYTES of the body, at most maxResponseBytes read. Handling the callbacks directly, rather
 * than through `request()`, spares every attempt a response stream, its async iterator and an
 * AsyncResource (issue 16: a tenth of the delivery worker's CPU went to the HTTP client). The
 * deadline (`signal`) aborts the exchange at any point; an answer that goes past maxResponseBytes
 * is cut off, which closes its connection (undici never reuses a connection cut mid-answer).
 */
class AnswerReader implements Dispatcher.DispatchHandler {
  readonly #opts: PinnedOptions;
  readonly #resolve: (response: PinnedResponse) => void;
  readonly #reject: (error: unknown) => void;
  #controller: Dispatcher.DispatchController | undefined;
  #status = 0;
  readonly #kept: Buffer[] = [];
  #keptBytes = 0;
  #read = 0;
  #settled = false;
  // Before the request is on a connection (connecting, TLS, or queued behind the pool's busy
  // connections) there is nothing to cut: the deadline settles the attempt at once, and
  // onRequestStart cuts the request should it still reach a connection.
  readonly #onAbort = (): void => {
    if (this.#controller) this.#abort(this.#opts.signal.reason);
    else this.#settle(this.#opts.signal.reason);
  };

  constructor(opts: PinnedOptions, resolve: (r: PinnedResponse) => void, reject: (e: unknown) => void) {
    this.#opts = opts;
    this.#resolve = resolve;
    this.#reject = reject;
    if (opts.signal.aborted) this.#settle(opts.signal.reason);
    else opts.signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  #abort(reason: unknown): void {
    this.#controller?.abort(reason instanceof Error ? reason : new Error(String(reason)));
  }

  #settle(error: unknown, response?: PinnedResponse): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#opts.signal.removeEventListener('abort', this.#onAbort);
    if (response) this.#resolve(response);
    else this.#reject(error);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#opts.signal.aborted) this.#abort(this.#opts.signal.reason);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    // 1xx answers are interim; the final status follows on the same exchange.
    if (statusCode >= 200) this.#status = statusCode;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    const take = Math.min(chunk.length, this.#opts.maxResponseBytes - this.#read);
    this.#read += take;
    const keep = this.#opts.keepBytes ?? EXCERPT_BYTES;
    const piece = chunk.subarray(0, Math.min(take, keep - this.#keptBytes));
    if (piece.length > 0) {
      // Copied: undici may reuse the memory of a chunk it has handed over.
      this.#kept.push(Buffer.from(piece));
      this.#keptBytes += piece.length;
    }
    if (take < chunk.length) {
      this.#settle(undefined, { status: this.#status, body: Buffer.concat(this.#kept), truncated: true });
      controller.abort(TRUNCATED);
    }
  }

  onResponseEnd(): void {
    this.#settle(undefined, { status: this.#status, body: Buffer.concat(this.#kept), truncated: false });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#settle(error);
  }
}

export function codeOf(error: unknown): string {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    if ('code' in current && typeof current.code === 'string') return current.code;
    current = current.cause;
  }
  return '';
}
