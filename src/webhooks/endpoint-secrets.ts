/**
 * Endpoint signing secrets at rest (docs/webhooks.md, "Secret storage").
 *
 * API (the delivery worker needs only `loadSigningSecret`):
 * - `generateSecret()`: a new `whsec_` + 43 base64url characters secret (32 random bytes).
 * - `secretHint(secret)`: `whsec_…abcd`, safe to show and store.
 * - `loadSealingKeys(db, operatorKey)`: the keys that seal/open; `operatorKey` is
 *   `services.config.webhooks.secretKey` (ACCOUNTING_SECRET_KEY) or undefined.
 * - `sealSecret(keys, secret, binding)` / `openSecret(keys, sealed, binding)`: AES-256-GCM,
 *   bound to `{organizationId, endpointId}` (a sealed value copied to another row does not open).
 * - `loadSigningSecret(db, row, operatorKey)`: the plaintext secret of a `webhook_endpoints` row,
 *   for signing one delivery. Throws `SecretUnavailableError` when the key that sealed it is gone.
 *
 * Sealed format: `v1.<keyId>.<iv>.<ciphertext>.<tag>` (base64url parts). New secrets are sealed
 * with the operator key when ACCOUNTING_SECRET_KEY is set (keyId `env-<12 hex>`), otherwise with
 * the instance key that migration 0004 stores in `webhook_keys` (keyId `db`). Opening accepts
 * either, so setting ACCOUNTING_SECRET_KEY later keeps older secrets readable.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { WebhookEndpointsTable } from '../db/tables/webhooks.ts';
import { generateEndpointSecret, secretHint } from './signature.ts';

export { secretHint };

export const INSTANCE_KEY_ID = 'db';
/** Minimum length of ACCOUNTING_SECRET_KEY (checked by loadConfig). */
export const OPERATOR_KEY_MIN_LENGTH = 32;

export function generateSecret(): string {
  return generateEndpointSecret();
}

/** The key material of migration 0004 (`webhook_keys` row `default`): 32 random bytes, base64. */
export function newInstanceKeyMaterial(): string {
  return randomBytes(32).toString('base64');
}

export class SecretUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretUnavailableError';
  }
}

export interface SealingKeys {
  /** Key id used for new seals. */
  currentId: string;
  byId: ReadonlyMap<string, Buffer>;
}

export interface SecretBinding {
  organizationId: string;
  endpointId: string;
}

/** Any string of 32+ characters works: HKDF turns it into an AES-256 key. */
function operatorKeyEntry(operatorKey: string): [string, Buffer] {
  const key = Buffer.from(
    hkdfSync('sha256', Buffer.from(operatorKey, 'utf8'), '', 'accounting webhook endpoint secrets v1', 32),
  );
  // The id reveals nothing about the key; it only tells which key sealed a value.
  const id = `env-${createHash('sha256').update('key-id:').update(key).digest('hex').slice(0, 12)}`;
  return [id, key];
}

export async function loadSealingKeys(
  db: Kysely<Database>,
  operatorKey: string | undefined,
): Promise<SealingKeys> {
  const byId = new Map<string, Buffer>();
  const row = await db
    .selectFrom('webhook_keys')
    .select('key_material')
    .where('id', '=', 'default')
    .executeTakeFirst();
  if (row) byId.set(INSTANCE_KEY_ID, Buffer.from(row.key_material, 'base64'));
  if (operatorKey !== undefined) {
    const [id, key] = operatorKeyEntry(operatorKey);
    byId.set(id, key);
    return { currentId: id, byId };
  }
  if (!row) throw new SecretUnavailableError('the instance key (webhook_keys) is missing; run migrations');
  return { currentId: INSTANCE_KEY_ID, byId };
}

function aad(binding: SecretBinding): Buffer {
  return Buffer.from(`webhook-endpoint:${binding.organizationId}:${binding.endpointId}`, 'utf8');
}

export function sealSecret(keys: SealingKeys, secret: string, binding: SecretBinding): string {
  return seal(keys, secret, aad(binding));
}

export function openSecret(keys: SealingKeys, sealed: string, binding: SecretBinding): string {
  return open(keys, sealed, aad(binding), 'stored endpoint secret');
}

/**
 * A stored idempotent result that holds a secret (the answer of `webhooks.endpoints.create` and
 * `rotateSecret`), sealed like the secret itself and bound to its organization and key, so the
 * idempotency table never holds a secret in clear (see docs/decisions.md).
 */
export function sealReplay(keys: SealingKeys, text: string, organizationId: string, key: string): string {
  return seal(keys, text, replayAad(organizationId, key));
}

export function openReplay(keys: SealingKeys, sealed: string, organizationId: string, key: string): string {
  return open(keys, sealed, replayAad(organizationId, key), 'stored result');
}

/** The sealer `invoke` uses for the stored result of a `sealedReplay` operation. */
export async function createReplaySealer(
  db: Kysely<Database>,
  operatorKey: string | undefined,
  organizationId: string,
  key: string,
): Promise<{ seal(text: string): string; open(sealed: string): string }> {
  const keys = await loadSealingKeys(db, operatorKey);
  return {
    seal: (text) => sealReplay(keys, text, organizationId, key),
    open: (sealed) => openReplay(keys, sealed, organizationId, key),
  };
}

function replayAad(organizationId: string, key: string): Buffer {
  return Buffer.from(`idempotency-replay:${organizationId}:${key}`, 'utf8');
}

function seal(keys: SealingKeys, plaintext: string, associated: Buffer): string {
  const key = keys.byId.get(keys.currentId);
  if (!key) throw new SecretUnavailableError(`sealing key ${keys.currentId} is not loaded`);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associated);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const parts = [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url'));
  return ['v1', keys.currentId, ...parts].join('.');
}

function open(keys: SealingKeys, sealed: string, associated: Buffer, what: string): string {
  const [version, keyId, iv, body, tag, ...rest] = sealed.split('.');
  if (version !== 'v1' || !keyId || !iv || body === undefined || !tag || rest.length > 0) {
    throw new SecretUnavailableError(`the ${what} is not in the sealed format`);
  }
  const key = keys.byId.get(keyId);
  if (!key) {
    throw new SecretUnavailableError(
      `the ${what} was sealed with key ${keyId}, which is not configured (ACCOUNTING_SECRET_KEY changed?)`,
    );
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(associated);
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new SecretUnavailableError(`the ${what} does not open with its key`);
  }
}

export async function loadSigningSecret(
  db: Kysely<Database>,
  row: Pick<WebhookEndpointsTable, 'id' | 'organization_id' | 'secret'>,
  operatorKey: string | undefined,
): Promise<string> {
  const keys = await loadSealingKeys(db, operatorKey);
  return openSecret(keys, row.secret, { organizationId: row.organization_id, endpointId: row.id });
}
