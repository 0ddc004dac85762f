import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { InboundAddressesTable } from '../db/tables/receipts.ts';
import { newId } from '../lib/ids.ts';

/**
 * Receiving addresses: one live address per organization and purpose (`receipts`,
 * `company_mail`...). The address is `<purpose>-<token>@<inbound domain>`; the random token (20
 * base32 characters, 100 bits) is what makes it unguessable. Rotating retires the old address
 * (mail to it is refused from then on) and issues a new one.
 */

export type InboundAddressRow = Selectable<InboundAddressesTable>;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function token(): string {
  const bytes = randomBytes(20);
  let out = '';
  for (const byte of bytes) out += BASE32[byte & 31];
  return out;
}

/** `company_mail` -> `company-mail`: a local part uses no underscore, which some senders mangle. */
const purposeSlug = (purpose: string) => purpose.replace(/[^a-z0-9]+/g, '-');

export function formatAddress(localPart: string, domain: string): string {
  return `${localPart}@${domain}`;
}

export async function liveAddress(
  db: Kysely<Database>,
  organizationId: string,
  purpose: string,
): Promise<InboundAddressRow | undefined> {
  return db
    .selectFrom('inbound_addresses')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('purpose', '=', purpose)
    .where('retired_at', 'is', null)
    .executeTakeFirst();
}

async function insertAddress(
  db: Kysely<Database>,
  organizationId: string,
  purpose: string,
  revision: number,
  now: string,
): Promise<InboundAddressRow> {
  const row = {
    id: newId(),
    organization_id: organizationId,
    purpose,
    local_part: `${purposeSlug(purpose)}-${token()}`,
    retired_at: null,
    revision,
    created_at: now,
  };
  await db.insertInto('inbound_addresses').values(row).execute();
  return row;
}

/** The organization's live address for `purpose`, created on first use. */
export async function ensureInboundAddress(
  db: Kysely<Database>,
  organizationId: string,
  purpose: string,
  now: string,
): Promise<InboundAddressRow> {
  const live = await liveAddress(db, organizationId, purpose);
  if (live) return live;
  try {
    return await insertAddress(db, organizationId, purpose, 1, now);
  } catch (error) {
    // Two first uses raced: the unique live-address index let one insert win; read the winner's.
    // (Outside a transaction; inside one on PostgreSQL the failed insert has aborted it anyway.)
    const winner = await liveAddress(db, organizationId, purpose);
    if (winner) return winner;
    throw error;
  }
}

/**
 * Retires the live address and issues a new one; the new row carries the next revision, so the
 * address record reads as one record whose revision grows. Returns undefined when `expectedRevision`
 * is not the live one (the caller answers 409).
 */
export async function rotateInboundAddress(
  db: Kysely<Database>,
  organizationId: string,
  purpose: string,
  expectedRevision: number,
  now: string,
): Promise<{ retired: InboundAddressRow; current: InboundAddressRow } | undefined> {
  const live = await ensureInboundAddress(db, organizationId, purpose, now);
  if (live.revision !== expectedRevision) return undefined;
  const retired = await db
    .updateTable('inbound_addresses')
    .set({ retired_at: now })
    .where('id', '=', live.id)
    .where('retired_at', 'is', null)
    .executeTakeFirst();
  if (retired.numUpdatedRows === 0n) return undefined;
  const current = await insertAddress(db, organizationId, purpose, live.revision + 1, now);
  return { retired: { ...live, retired_at: now }, current };
}

/** The live address a recipient's local part names (case-insensitive), across organizations. */
export async function resolveLocalPart(
  db: Kysely<Database>,
  localPart: string,
): Promise<InboundAddressRow | undefined> {
  return db
    .selectFrom('inbound_addresses')
    .selectAll()
    .where('local_part', '=', localPart.toLowerCase())
    .where('retired_at', 'is', null)
    .executeTakeFirst();
}

/** Accepted and refused message counts of an organization's purpose (all addresses, ever). */
export async function inboundCounts(
  db: Kysely<Database>,
  organizationId: string,
  purpose: string,
): Promise<{ accepted: number; refused: number }> {
  const rows = await db
    .selectFrom('inbound_messages')
    .select(['outcome', (eb) => eb.fn.countAll<number>().as('n')])
    .where('organization_id', '=', organizationId)
    .where('purpose', '=', purpose)
    .groupBy('outcome')
    .execute();
  const count = (outcome: string) => Number(rows.find((r) => r.outcome === outcome)?.n ?? 0);
  return { accepted: count('accepted'), refused: count('refused') };
}
