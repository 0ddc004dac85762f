import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API key format: `ak_<lookup id: 16 hex>_<secret: 43 base64url chars>`.
 * The lookup id finds the row; only SHA-256 of the secret is stored. The secret carries 256 bits of
 * entropy, so a fast hash is enough (no dictionary to attack) and keeps every request cheap.
 */
const KEY_PATTERN = /^ak_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface NewApiKey {
  token: string;
  lookupId: string;
  secretHash: string;
}

export function generateApiKey(): NewApiKey {
  const lookupId = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { token: `ak_${lookupId}_${secret}`, lookupId, secretHash: hashSecret(secret) };
}

export function parseApiKey(token: string): { lookupId: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(token);
  if (!match?.[1] || !match[2]) return undefined;
  return { lookupId: match[1], secret: match[2] };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Constant-time comparison of the presented secret with the stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith('ak_');
}
