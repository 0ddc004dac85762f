// A document fetched from an operator-configured URL (the reference rates source) through the same
// SSRF-safe path as webhook deliveries: the URL policy and one vetted resolution (safe-client.ts),
// a connection pinned to the vetted addresses (pinned-request.ts), no redirects, no proxy, one
// deadline over everything, and a cap on the bytes read. Only the method and what is kept differ:
// a GET whose whole answer (up to the cap) is the result.

import { sendPinned } from './pinned-request.ts';
import {
  classify,
  DeadlineExceeded,
  type DeliveryErrorClass,
  type DeliveryOptions,
  describe,
  vetTarget,
} from './safe-client.ts';
import { undici } from './undici.ts';

export type SafeGetOptions = Omit<DeliveryOptions, 'maxResponseBytes'> & {
  /** An answer longer than this is refused (`too_large`) without reading the rest. */
  maxBytes: number;
  accept: string;
};

export type SafeGetResult =
  | { ok: true; status: number; body: Buffer }
  | { ok: false; errorClass: DeliveryErrorClass | 'too_large'; errorMessage: string; status?: number };

export async function getSafely(url: string, opts: SafeGetOptions): Promise<SafeGetResult> {
  undici();
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DeadlineExceeded()), timeoutMs);
  try {
    const target = await vetTarget(url, opts, deadline.signal);
    if (!Array.isArray(target)) return { ok: false, ...target };
    const [vetted, addresses] = target;
    const { status, body, truncated } = await sendPinned(
      vetted,
      addresses,
      { method: 'GET', headers: { accept: opts.accept }, body: '' },
      { timeoutMs, maxResponseBytes: opts.maxBytes, keepBytes: opts.maxBytes, signal: deadline.signal },
    );
    if (status < 200 || status >= 300) {
      const redirect = status >= 300 && status < 400;
      return {
        ok: false,
        status,
        errorClass: redirect ? 'redirect' : 'http_status',
        errorMessage: redirect ? `HTTP ${status}; redirects are not followed` : `HTTP ${status}`,
      };
    }
    if (truncated)
      return {
        ok: false,
        status,
        errorClass: 'too_large',
        errorMessage: `the answer is longer than ${opts.maxBytes} bytes`,
      };
    return { ok: true, status, body };
  } catch (error) {
    const errorClass = deadline.signal.aborted ? 'timeout' : classify(error);
    const errorMessage =
      errorClass === 'timeout' ? `no complete answer within ${timeoutMs} ms` : describe(error);
    return { ok: false, errorClass, errorMessage };
  } finally {
    clearTimeout(timer);
  }
}
