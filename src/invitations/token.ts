import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

const SECRET_KEY = 'invitation_token_secret';

/**
 * The installation's invitation secret (32 random bytes), created on first use. A link token is
 * derived from it and the invitation id, so `contractors.invitations.link` can show the link
 * again while the database keeps only the token's SHA-256. Two first uses at once: the primary
 * key lets one insert win and both read the same value.
 */
export async function invitationSecret(db: Kysely<Database>, now: Date): Promise<Buffer> {
  const existing = await readSecret(db);
  if (existing) return existing;
  await db
    .insertInto('instance_settings')
    .values({ key: SECRET_KEY, value: randomBytes(32).toString('base64url'), created_at: now.toISOString() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const stored = await readSecret(db);
  if (!stored) throw new Error('the invitation secret could not be stored');
  return stored;
}

async function readSecret(db: Kysely<Database>): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('key', '=', SECRET_KEY)
    .executeTakeFirst();
  return row ? Buffer.from(row.value, 'base64url') : undefined;
}

/** 32 bytes of HMAC-SHA256, base64url (43 characters): unguessable without the secret. */
export function invitationToken(secret: Buffer, invitationId: string): string {
  return createHmac('sha256', secret).update(`contractor-invitation:${invitationId}`).digest('base64url');
}

/** What the database stores and looks up: the hex SHA-256 of the token. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Anything else cannot be a token; it is refused before touching the database. */
export function isTokenShaped(text: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(text);
}
