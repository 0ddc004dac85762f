// Webhook signatures, Stripe's scheme: HMAC-SHA256 keyed with the UTF-8 bytes of the whole secret
// string (prefix included, no base64 decoding) over "<t>.<raw body>", sent as "t=<t>,v1=<hex>".
// Keeping the scheme byte-for-byte Stripe's lets receivers reuse existing Stripe-style verifiers.
// docs/webhook-signatures.md holds the exact rules and test vectors.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Service-Signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;
export const SECRET_PREFIX = 'whsec_';

const HEX_SHA256 = /^[0-9a-f]{64}$/;
const DIGITS = /^[0-9]{1,15}$/;

function hmacHex(secret: string, timestampSeconds: number, rawBody: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${timestampSeconds}.${rawBody}`, 'utf8')
    .digest('hex');
}

/**
 * Builds the `Service-Signature` header value for one delivery. Several secrets give several
 * `v1=` entries (a receiver accepts the header when any of them verifies).
 */
export function signPayload(
  secret: string | readonly string[],
  timestampSeconds: number,
  rawBody: string,
): string {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError('timestampSeconds must be a non-negative integer number of Unix seconds');
  }
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0 || secrets.some((s) => s === ''))
    throw new RangeError('a signing secret is empty');
  const entries = secrets.map((s) => `v1=${hmacHex(s, timestampSeconds, rawBody)}`);
  return [`t=${timestampSeconds}`, ...entries].join(',');
}

export type SignatureFailure =
  | 'malformed_header' // no single integer t=, or unparseable parts
  | 'no_signature' // no well-formed v1= entry
  | 'signature_mismatch'
  | 'timestamp_outside_tolerance';

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: SignatureFailure };

export type VerifyInput = {
  /** The raw request body exactly as received, before any JSON parsing. */
  payload: string;
  /** The `Service-Signature` header value. */
  header: string;
  secret: string;
  /** Accepted distance between `t` and now, in either direction. */
  toleranceSeconds?: number;
  /** Current Unix time in seconds; defaults to the system clock. */
  now?: number;
};

type ParsedHeader = { timestamp: number; signatures: Buffer[] };

function parseHeader(header: string): ParsedHeader | SignatureFailure {
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return 'malformed_header';
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      // Two different timestamps would make it ambiguous which one was signed.
      if (!DIGITS.test(value) || (timestamp !== undefined && timestamp !== Number(value)))
        return 'malformed_header';
      timestamp = Number(value);
    } else if (key === 'v1' && HEX_SHA256.test(value)) {
      signatures.push(Buffer.from(value, 'hex'));
    }
    // Other schemes (v0, future versions) and malformed v1 values are ignored, as Stripe does.
  }
  if (timestamp === undefined) return 'malformed_header';
  if (signatures.length === 0) return 'no_signature';
  return { timestamp, signatures };
}

/**
 * Verifies a `Service-Signature` header: at least one `v1=` entry must equal the HMAC of
 * "<t>.<payload>" (constant-time comparison) and `t` must be within `toleranceSeconds` of now.
 */
export function verifySignature(input: VerifyInput): SignatureCheck {
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = input.now ?? Math.floor(Date.now() / 1000);
  const parsed = parseHeader(input.header);
  if (typeof parsed === 'string') return { ok: false, reason: parsed };
  const expected = Buffer.from(hmacHex(input.secret, parsed.timestamp, input.payload), 'hex');
  // Compare against every entry (no early exit) so timing does not reveal which one matched.
  let matched = false;
  for (const candidate of parsed.signatures) {
    if (timingSafeEqual(candidate, expected)) matched = true;
  }
  if (!matched) return { ok: false, reason: 'signature_mismatch' };
  if (Math.abs(now - parsed.timestamp) > tolerance)
    return { ok: false, reason: 'timestamp_outside_tolerance' };
  return { ok: true, timestamp: parsed.timestamp };
}

/** A new endpoint signing secret: `whsec_` followed by 32 random bytes in base64url (43 characters). */
export function generateEndpointSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * A short, safe-to-display hint of a secret: `whsec_…` plus its last 4 characters. Secrets too short
 * for the tail to be a small fraction of them get no tail at all.
 */
export function secretHint(secret: string): string {
  const prefix = secret.startsWith(SECRET_PREFIX) ? SECRET_PREFIX : '';
  const body = secret.slice(prefix.length);
  return body.length >= 16 ? `${prefix}…${body.slice(-4)}` : `${prefix}…`;
}
