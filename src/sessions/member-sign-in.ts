import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import type { UnitRuntime } from '../unit/unit-of-work.ts';
import { withUnit } from '../unit/with-unit.ts';
import type { SessionSettings } from './settings.ts';
import { consumeSignInLink, issueSignInLink, peekSignInLink } from './sign-in-links.ts';
import { type Session, startSession } from './store.ts';

/** The dashboard path a member's link opens (a confirmation page: opening it signs nobody in). */
export const MEMBER_LINK_PATH = '/dashboard/sign-in/link/';

export interface MemberLink {
  organizationId: string;
  organizationName: string;
  memberId: string;
  url: string;
  expiresAt: string;
}

interface Membership {
  memberId: string;
  organizationId: string;
  organizationName: string;
  email: string;
}

/** Active memberships of an address (one person may belong to several organizations). */
async function activeMemberships(db: Kysely<Database>, email: string): Promise<Membership[]> {
  const rows = await db
    .selectFrom('members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .select(['m.id', 'm.organization_id', 'o.name', 'm.email'])
    .where((eb) => eb(eb.fn('lower', ['m.email']), '=', email.trim().toLowerCase()))
    .where('m.status', '=', 'active')
    .orderBy('o.name')
    .limit(20)
    .execute();
  return rows.map((r) => ({
    memberId: r.id,
    organizationId: r.organization_id,
    organizationName: r.name,
    email: r.email,
  }));
}

/**
 * Makes one sign-in link per active membership of the address, each in its own unit (audited as
 * `dashboard.signIn.link`). With `mail`, each is e-mailed through the outbox (SMTP, or kept on a
 * laptop); without, the links are returned to print (the CLI). An unknown address makes nothing,
 * and the page that asked says the same thing either way.
 */
export async function memberSignInLinks(
  runtime: UnitRuntime,
  settings: SessionSettings,
  publicUrl: string,
  request: { email: string; organizationId?: string; mail: boolean; requestId?: string },
): Promise<MemberLink[]> {
  const memberships = (await activeMemberships(runtime.db.kysely, request.email)).filter(
    (m) => request.organizationId === undefined || m.organizationId === request.organizationId,
  );
  const links: MemberLink[] = [];
  for (const membership of memberships) {
    const unitOptions = {
      organizationId: membership.organizationId,
      actor: { type: 'member' as const, memberId: membership.memberId, credentialId: 'sign-in-link' },
      operation: 'dashboard.signIn.link',
      transport: 'dashboard' as const,
      ...(request.requestId ? { requestId: request.requestId } : {}),
    };
    const link = await withUnit(runtime, unitOptions, async (unit) => {
      const issued = await issueSignInLink(
        unit.db,
        unit.clock.now(),
        { type: 'member', id: membership.memberId, organizationId: membership.organizationId },
        settings.linkTtlMs,
      );
      await unit.audit({
        recordType: 'sign_in_link',
        recordId: issued.id,
        beforeRevision: null,
        afterRevision: null,
      });
      const url = `${publicUrl.replace(/\/$/, '')}${MEMBER_LINK_PATH}${issued.token}`;
      if (request.mail) await unit.sendMail(signInMail(membership, url, settings.linkTtlMs));
      return { ...membership, url, expiresAt: issued.expiresAt };
    });
    links.push({
      organizationId: link.organizationId,
      organizationName: link.organizationName,
      memberId: link.memberId,
      url: link.url,
      expiresAt: link.expiresAt,
    });
  }
  return links;
}

function signInMail(membership: Membership, url: string, ttlMs: number) {
  const minutes = Math.round(ttlMs / 60_000);
  return {
    to: [membership.email],
    subject: `Sign in to ${membership.organizationName}`,
    text: [
      `Use this link to sign in to the accounting dashboard of ${membership.organizationName}:`,
      '',
      url,
      '',
      `It works once, for ${minutes} minutes. If you did not ask to sign in, ignore this message.`,
    ].join('\n'),
    tags: { kind: 'dashboard.sign_in_link' },
  };
}

/**
 * Uses a member's sign-in link and starts a session, in one unit: a link is spent exactly when a
 * session starts. Undefined when the link is unknown, used, expired or its member is inactive.
 */
export async function signInWithMemberLink(
  runtime: UnitRuntime,
  settings: SessionSettings,
  token: string,
  context: { userAgent: string | undefined; requestId: string; method?: 'link' | 'oidc' },
): Promise<{ session: Session; token: string } | undefined> {
  const principal = await peekSignInLink(runtime.db.kysely, runtime.clock.now(), 'member', token);
  if (!principal) return undefined;
  const sessionId = newId();
  return withUnit(
    runtime,
    {
      organizationId: principal.organizationId,
      actor: { type: 'member', memberId: principal.id, credentialId: `session:${sessionId}` },
      operation: 'dashboard.signIn',
      transport: 'dashboard',
      requestId: context.requestId,
    },
    async (unit) => {
      const member = await unit.db
        .selectFrom('members')
        .select('status')
        .where('id', '=', principal.id)
        .where('organization_id', '=', principal.organizationId)
        .executeTakeFirst();
      if (member?.status !== 'active') return undefined;
      if (!(await consumeSignInLink(unit, 'member', token))) return undefined;
      return startSession(unit, settings, {
        principal,
        method: context.method ?? 'link',
        userAgent: context.userAgent,
        id: sessionId,
      });
    },
  );
}
