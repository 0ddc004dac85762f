// The only HTTP client webhook deliveries use. It resolves the host name once, judges every answer
// with address-policy, and connects to a vetted IP itself (original Host header and TLS server
// name kept), so nothing between the check and the connection can swap in another address (DNS
// rebinding). It uses a private undici Client: no global dispatcher, no proxy from the environment,
// no redirects, a total deadline that also covers a slow body, and a cap on what it reads.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { checkAddress } from './address-policy.ts';
import { codeOf, EXCERPT_CHARS, sendPinned } from './pinned-request.ts';
import { undici } from './undici.ts';
import { checkEndpointUrl, isLocalhostException, type LocalhostPorts } from './url-policy.ts';

export type Resolver = (hostname: string) => Promise<string[]>;
export type DeliveryRequest = { url: string; headers: Record<string, string>; body: string };

export type DeliveryOptions = {
  /** Deadline for the whole delivery: resolution, connection, headers and body. Default 10 000. */
  timeoutMs?: number;
  /** Response bytes read at most; the rest is never read and the socket is destroyed. Default 64 KiB. */
  maxResponseBytes?: number;
  /** Host name to addresses; defaults to the system resolver (all addresses). */
  resolver?: Resolver;
  /** Operator setting for `http://localhost[:port]`, which then goes to 127.0.0.1 or ::1 only. */
  allowLocalhostHttp: boolean;
  /** The ports that exception may reach (ACCOUNTING_WEBHOOK_LOCALHOST_PORTS). */
  localhostPorts: LocalhostPorts;
};

export type DeliveryErrorClass =
  | 'timeout'
  | 'connection_refused'
  | 'connection_error'
  | 'dns_error'
  | 'unsafe_address' // the URL or every resolved address is refused by policy; nothing was sent
  | 'redirect' // a 3xx answer; redirects are never followed
  | 'http_status' // any other non-2xx answer except 410
  | 'tls_error';

export type DeliveryResult = {
  outcome: 'success' | 'failure' | 'gone';
  status?: number;
  durationMs: number;
  /**
   * The first 1024 characters of the response body, decoded as UTF-8; always empty for an
   * `http://localhost` delivery, whose answer comes from this machine and is not the caller's to read.
   */
  responseExcerpt: string;
  /** True when the body was longer than maxResponseBytes; the rest was not read. */
  responseTruncated: boolean;
  errorClass?: DeliveryErrorClass;
  /** A short diagnostic for the delivery log (never the request's headers or body). */
  errorMessage?: string;
  /** The vetted IP address the request went to (or the connection attempt the error is about). */
  address?: string;
};

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;
const LOCALHOST_ADDRESSES: readonly string[] = ['127.0.0.1', '::1'];
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((answer) => answer.address);

export type Failure = { errorClass: DeliveryErrorClass; errorMessage: string };
type Target = [URL, string[]];
export class DeadlineExceeded extends Error {}

async function resolveOnce(
  host: string,
  resolve: Resolver,
  signal: AbortSignal,
): Promise<string[] | Failure> {
  const deadline = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(new DeadlineExceeded());
    signal.addEventListener('abort', () => reject(new DeadlineExceeded()), { once: true });
  });
  try {
    const answers = await Promise.race([resolve(host), deadline]);
    if (answers.length > 0) return answers;
    return { errorClass: 'dns_error', errorMessage: `${host} has no addresses` };
  } catch (error) {
    if (error instanceof DeadlineExceeded) throw error;
    return { errorClass: 'dns_error', errorMessage: `${host} cannot be resolved: ${describe(error)}` };
  }
}

/** The URL check, then one resolution whose public answers are the only addresses ever used. */
export async function vetTarget(
  raw: string,
  opts: DeliveryOptions,
  signal: AbortSignal,
): Promise<Failure | Target> {
  const verdict = checkEndpointUrl(raw, {
    allowLocalhostHttp: opts.allowLocalhostHttp,
    localhostPorts: opts.localhostPorts,
  });
  if (!verdict.ok) return { errorClass: 'unsafe_address', errorMessage: verdict.message };
  const url = verdict.url;
  if (isLocalhostException(url, opts)) return [url, [...LOCALHOST_ADDRESSES]];
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const resolver = opts.resolver ?? systemResolver;
  const answers = isIP(host) === 0 ? await resolveOnce(host, resolver, signal) : [host];
  if (!Array.isArray(answers)) return answers;
  const verdicts = answers.map((answer) => ({ answer, verdict: checkAddress(answer) }));
  const safe = verdicts.flatMap(({ verdict: v }) => (v.ok ? [v.address] : []));
  if (safe.length > 0) return [url, safe];
  const refused = verdicts.map(({ answer, verdict: v }) => `${answer} (${v.ok ? 'ok' : v.reason})`);
  const errorMessage = `${host} has no public address: ${refused.join(', ')}`;
  return { errorClass: 'unsafe_address', errorMessage };
}

const utf8 = new TextDecoder();

/** The first EXCERPT_CHARS characters of the answer. */
export function excerptOf(body: Buffer): string {
  const text = utf8.decode(body);
  // A string of at most EXCERPT_CHARS UTF-16 units has at most that many code points: as it is.
  if (text.length <= EXCERPT_CHARS) return text;
  // Slicing code points (not UTF-16 units) never leaves half a surrogate pair at the end.
  return Array.from(text).slice(0, EXCERPT_CHARS).join('');
}

export function describe(error: unknown): string {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return code === '' || message.includes(code) ? message : `${code}: ${message}`;
}

export function classify(error: unknown): DeliveryErrorClass {
  const code = codeOf(error);
  if (TIMEOUT_CODES.has(code) || code === 'ETIMEDOUT') return 'timeout';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|EPROTO$)|SELF_SIGNED|UNABLE_TO_|_CERT_/.test(code)) return 'tls_error';
  return 'connection_error';
}

function statusResult(status: number): Pick<DeliveryResult, 'outcome' | 'errorClass' | 'errorMessage'> {
  if (status >= 200 && status < 300) return { outcome: 'success' };
  if (status === 410) return { outcome: 'gone' };
  if (status >= 300 && status < 400) {
    return {
      outcome: 'failure',
      errorClass: 'redirect',
      errorMessage: `HTTP ${status}; redirects are not followed`,
    };
  }
  return { outcome: 'failure', errorClass: 'http_status', errorMessage: `HTTP ${status}` };
}

/**
 * Delivers one webhook request (POST). Never throws for receiver-side problems: every outcome,
 * policy refusals included, comes back as a DeliveryResult. 2xx is success, 410 is 'gone',
 * anything else (3xx included) is a failure.
 */
export async function deliver(request: DeliveryRequest, opts: DeliveryOptions): Promise<DeliveryResult> {
  // The HTTP client loads with the first delivery (undici.ts), before the deadline starts: the
  // receiver's time limit is not spent on our own module loading.
  undici();
  const started = performance.now();
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DeadlineExceeded()), timeoutMs);
  let address: string | undefined;
  const finish = (result: Omit<DeliveryResult, 'durationMs'>): DeliveryResult => ({
    ...result,
    durationMs: Math.round(performance.now() - started),
    ...(address === undefined ? {} : { address }),
  });
  try {
    const target = await vetTarget(request.url, opts, deadline.signal);
    if (!Array.isArray(target)) {
      return finish({ outcome: 'failure', responseExcerpt: '', responseTruncated: false, ...target });
    }
    const [url, addresses] = target;
    const { status, body, truncated } = await sendPinned(url, addresses, request, {
      timeoutMs,
      maxResponseBytes: opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      signal: deadline.signal,
      onAddress: (tried) => {
        address = tried;
      },
    });
    // A local answer stays on the machine: whoever created the endpoint must not read what a
    // local service says (issue 31 part 7); status and outcome are enough to debug a receiver.
    const responseExcerpt = isLocalhostException(url, opts) ? '' : excerptOf(body);
    return finish({ ...statusResult(status), status, responseExcerpt, responseTruncated: truncated });
  } catch (error) {
    // Whatever undici reports once the deadline has fired (aborted request or body), it was the deadline.
    const errorClass = deadline.signal.aborted ? 'timeout' : classify(error);
    const errorMessage =
      errorClass === 'timeout' ? `no complete answer within ${timeoutMs} ms` : describe(error);
    return finish({
      outcome: 'failure',
      responseExcerpt: '',
      responseTruncated: false,
      errorClass,
      errorMessage,
    });
  } finally {
    clearTimeout(timer);
  }
}
