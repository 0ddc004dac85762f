// Webhook signature verification, self-contained so the client folder can be copied on its own
// (node:crypto, available in Node >= 20, Deno and Bun). The scheme is Stripe's: HMAC-SHA256 keyed
// with the UTF-8 bytes of the whole secret string (prefix included, no base64 decoding) over
// "<t>.<raw body>", sent as "t=<t>,v1=<hex>". docs/webhook-signatures.md has the rules and test
// vectors; the service signs with src/webhooks/signature.ts, which uses signatureHex below.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const DEFAULT_TOLERANCE_SECONDS = 300;

const HEX_SHA256 = /^[0-9a-f]{64}$/;
const DIGITS = /^[0-9]{1,15}$/;

/** The hex HMAC-SHA256 of "<t>.<raw body>" keyed with the secret string's UTF-8 bytes. */
export function signatureHex(secret: string, timestampSeconds: number, rawBody: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${timestampSeconds}.${rawBody}`, 'utf8')
    .digest('hex');
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
  /**
   * The endpoint's secret; during your own switch-over, the new and the old one (either may verify).
   * The service signs with both for a while after a rotation (several `v1=` entries).
   */
  secret: string | readonly string[];
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
  const secrets = typeof input.secret === 'string' ? [input.secret] : input.secret;
  const expected = secrets
    .filter((secret) => secret !== '')
    .map((secret) => Buffer.from(signatureHex(secret, parsed.timestamp, input.payload), 'hex'));
  // Compare every pair (no early exit) so timing does not reveal which one matched.
  let matched = false;
  for (const candidate of parsed.signatures) {
    for (const wanted of expected) if (timingSafeEqual(candidate, wanted)) matched = true;
  }
  if (!matched) return { ok: false, reason: 'signature_mismatch' };
  if (Math.abs(now - parsed.timestamp) > tolerance)
    return { ok: false, reason: 'timestamp_outside_tolerance' };
  return { ok: true, timestamp: parsed.timestamp };
}
