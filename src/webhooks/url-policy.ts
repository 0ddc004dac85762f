// Which webhook endpoint URLs may be stored: https on port 443 or 8443 to a public host.
//
// The URL is judged after WHATWG parsing (the same parser that later builds the request), so every
// IPv4 spelling it accepts (2130706433, 0177.0.0.1, 0x7f.1, 127.1, fullwidth digits, ...) has
// already become a dotted quad here. DNS names are judged again at connect time by safe-client.ts,
// because a public-looking name can resolve to a private address.
import { isIP } from 'node:net';
import { checkAddress } from './address-policy.ts';

export type EndpointUrlErrorCode =
  | 'invalid_url'
  | 'url_scheme_not_allowed'
  | 'url_port_not_allowed'
  | 'url_host_not_allowed'
  | 'url_credentials_not_allowed';

export type EndpointUrlVerdict =
  | { ok: true; url: URL }
  | { ok: false; code: EndpointUrlErrorCode; message: string };

/** The ports `http://localhost` may use: those listed, or any (tests and development only). */
export type LocalhostPorts = 'any' | readonly number[];

/** The operator setting that lists them (docs/configuration.md, decision 411). */
export const LOCALHOST_PORTS_SETTING = 'ACCOUNTING_WEBHOOK_LOCALHOST_PORTS';

export type EndpointUrlOptions = {
  /** Operator setting: allow `http://localhost[:port]` (local development). Off in production. */
  allowLocalhostHttp: boolean;
  /** Operator setting: the ports that exception reaches; none unless listed. */
  localhostPorts: LocalhostPorts;
};

export const MAX_ENDPOINT_URL_LENGTH = 2048;
export const ALLOWED_ENDPOINT_PORTS: readonly number[] = [443, 8443];

// Names that only mean something inside a machine or a private network (RFC 6761, RFC 8375,
// RFC 6762, and the '.internal' TLD reserved for private use). Subdomains are refused too.
const LOCAL_SUFFIXES: readonly string[] = ['localhost', 'localdomain', 'local', 'internal', 'home.arpa'];

function refuse(code: EndpointUrlErrorCode, message: string): EndpointUrlVerdict {
  return { ok: false, code, message };
}

/** `http://localhost[:port]` while the operator allows the exception, whatever the port. */
function isLocalhostHttp(url: URL, opts: EndpointUrlOptions): boolean {
  return opts.allowLocalhostHttp && url.protocol === 'http:' && url.hostname === 'localhost';
}

function localhostPortListed(url: URL, opts: EndpointUrlOptions): boolean {
  const port = url.port === '' ? 80 : Number(url.port);
  return opts.localhostPorts === 'any' || opts.localhostPorts.includes(port);
}

/**
 * True for the one exception to the https rule: the literal host name `localhost` over http, on a
 * port the operator lists, when the operator allows it. `127.0.0.1` and `[::1]` are deliberately
 * not part of it. Anything else listening on the machine (a database, an admin port) stays out of
 * reach of whoever may create an endpoint (issue 31 part 7).
 */
export function isLocalhostException(url: URL, opts: EndpointUrlOptions): boolean {
  return isLocalhostHttp(url, opts) && localhostPortListed(url, opts);
}

function localhostPortRefusal(url: URL, opts: EndpointUrlOptions): EndpointUrlVerdict {
  const port = url.port === '' ? 80 : Number(url.port);
  const listed =
    opts.localhostPorts === 'any' || opts.localhostPorts.length === 0
      ? 'none is listed'
      : `listed: ${opts.localhostPorts.join(', ')}`;
  return refuse(
    'url_port_not_allowed',
    `http://localhost is allowed only on the ports the operator lists in ${LOCALHOST_PORTS_SETTING} (${listed}); port ${port} is not.`,
  );
}

function checkDomainName(hostname: string): string | undefined {
  // One trailing dot is the fully qualified spelling of the same name; strip it before judging.
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  const labels = name.split('.');
  if (labels.some((label) => label === '')) return `The URL host ${hostname} has an empty label.`;
  const local = LOCAL_SUFFIXES.find((suffix) => name === suffix || name.endsWith(`.${suffix}`));
  if (local !== undefined) return `The URL host ${hostname} is a local name (.${local}).`;
  if (labels.length < 2)
    return `The URL host ${hostname} is a single-label name, which only resolves locally.`;
  return undefined;
}

function checkHost(hostname: string): string | undefined {
  const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (isIP(literal) === 0) return checkDomainName(hostname);
  const verdict = checkAddress(literal);
  if (verdict.ok) return undefined;
  const via = verdict.embedding === undefined ? '' : ` (embedded in an ${verdict.embedding} address)`;
  return `The URL host ${hostname} is not a public address: ${verdict.reason}${via}.`;
}

/**
 * Judges a webhook endpoint URL before it is stored (and again before each delivery).
 * On success returns the parsed URL; its `href` is the normalized form to store.
 */
export function checkEndpointUrl(raw: string, opts: EndpointUrlOptions): EndpointUrlVerdict {
  if (raw.length > MAX_ENDPOINT_URL_LENGTH) {
    return refuse('invalid_url', `The URL is longer than ${MAX_ENDPOINT_URL_LENGTH} characters.`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('invalid_url', 'The URL cannot be parsed.');
  }
  // Normalization can lengthen the URL (percent-encoding, punycode); the stored form must fit too.
  if (url.href.length > MAX_ENDPOINT_URL_LENGTH) {
    return refuse('invalid_url', `The normalized URL is longer than ${MAX_ENDPOINT_URL_LENGTH} characters.`);
  }
  const exception = isLocalhostHttp(url, opts);
  if (url.protocol !== 'https:' && !exception) {
    return refuse('url_scheme_not_allowed', 'The URL must use https.');
  }
  if (url.username !== '' || url.password !== '') {
    return refuse('url_credentials_not_allowed', 'The URL must not contain a user name or password.');
  }
  if (exception) return localhostPortListed(url, opts) ? { ok: true, url } : localhostPortRefusal(url, opts);
  const port = url.port === '' ? 443 : Number(url.port);
  if (!ALLOWED_ENDPOINT_PORTS.includes(port)) {
    return refuse(
      'url_port_not_allowed',
      `The URL port must be one of ${ALLOWED_ENDPOINT_PORTS.join(', ')}.`,
    );
  }
  const hostProblem = checkHost(url.hostname);
  if (hostProblem !== undefined) return refuse('url_host_not_allowed', hostProblem);
  return { ok: true, url };
}
