import { DAY, SECOND } from '../lib/clock.ts';

/** Contract: an invitation lasts 7 days. */
export const INVITATION_TTL_MS = 7 * DAY;
/** Contract: at most 3 invitations a day per contractor, read as a rolling 24-hour window. */
export const INVITATIONS_PER_WINDOW = 3;
export const INVITATION_WINDOW_MS = DAY;

export const INVITATION_STATUSES = ['open', 'accepted', 'revoked', 'replaced', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/**
 * What callers see. Expiry is never written by a job: an 'open' row whose time has passed is
 * expired from that instant on, so the answer is exact whatever the worker does.
 */
export function invitationStatus(row: { status: string; expires_at: string }, now: Date): InvitationStatus {
  if (row.status === 'open') return new Date(row.expires_at).getTime() > now.getTime() ? 'open' : 'expired';
  return (INVITATION_STATUSES as readonly string[]).includes(row.status)
    ? (row.status as InvitationStatus)
    : 'expired';
}

export function invitationExpiry(now: Date): Date {
  return new Date(now.getTime() + INVITATION_TTL_MS);
}

/** Start of the rolling window: invitations created strictly after it count. */
export function windowStart(now: Date): Date {
  return new Date(now.getTime() - INVITATION_WINDOW_MS);
}

/**
 * Given the creation times of the invitations inside the window (any order), the seconds until
 * another one may be sent, or undefined when one may be sent now. A slot frees up when the
 * invitation that keeps the count at the limit leaves the window.
 */
export function invitationRetryAfterSeconds(
  createdInWindow: readonly string[],
  now: Date,
): number | undefined {
  if (createdInWindow.length < INVITATIONS_PER_WINDOW) return undefined;
  const times = createdInWindow.map((iso) => new Date(iso).getTime()).sort((a, b) => a - b);
  const blocking = times[times.length - INVITATIONS_PER_WINDOW] ?? now.getTime();
  const waitMs = blocking + INVITATION_WINDOW_MS - now.getTime();
  return Math.max(1, Math.ceil(waitMs / SECOND));
}
