// Webhook signatures, Stripe's scheme: HMAC-SHA256 keyed with the UTF-8 bytes of the whole secret
// string (prefix included, no base64 decoding) over "<t>.<raw body>", sent as "t=<t>,v1=<hex>".
// Keeping the scheme byte-for-byte Stripe's lets receivers reuse existing Stripe-style verifiers.
// docs/webhook-signatures.md holds the exact rules and test vectors. Verification lives with the
// typed client (sdk/webhook-signature.ts), so receivers can copy it; the service only signs.
import { randomBytes } from 'node:crypto';
import { signatureHex } from '../../sdk/webhook-signature.ts';

export {
  DEFAULT_TOLERANCE_SECONDS,
  type SignatureCheck,
  type SignatureFailure,
  type VerifyInput,
  verifySignature,
} from '../../sdk/webhook-signature.ts';

export const SIGNATURE_HEADER = 'Service-Signature';
export const SECRET_PREFIX = 'whsec_';

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
  const entries = secrets.map((s) => `v1=${signatureHex(s, timestampSeconds, rawBody)}`);
  return [`t=${timestampSeconds}`, ...entries].join(',');
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
