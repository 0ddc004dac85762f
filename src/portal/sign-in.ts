import { newId } from '../lib/ids.ts';
import type { SessionSettings } from '../sessions/settings.ts';
import { consumeSignInLink, issueSignInLink, peekSignInLink } from '../sessions/sign-in-links.ts';
import { type Session, type SessionPrincipal, startSession } from '../sessions/store.ts';
import type { UnitOfWork, UnitRuntime } from '../unit/unit-of-work.ts';
import { withUnit } from '../unit/with-unit.ts';
import { contractorsByEmail, portalContractor } from './access.ts';

/** The portal path a contractor's link opens (a confirmation page: opening it signs nobody in). */
export const CONTRACTOR_LINK_PATH = '/portal/sign-in/link/';

/**
 * E-mails one single-use sign-in link per organization where the address belongs to a contractor
 * who joined and may use the portal now; each in its own unit (audited `portal.signIn.link`). An
 * unknown address makes nothing, and the page says the same either way.
 */
export async function contractorSignInLinks(
  runtime: UnitRuntime,
  settings: SessionSettings,
  publicUrl: string,
  request: { email: string; requestId: string /** A portal page to open after signing in. */; next?: string },
): Promise<number> {
  let sent = 0;
  for (const c of await contractorsByEmail(runtime.db.kysely, request.email)) {
    const allowed = await portalContractor(runtime.db.kysely, c.organization_id, c.id);
    if (!allowed) continue;
    await withUnit(
      runtime,
      {
        organizationId: c.organization_id,
        actor: { type: 'contractor', contractorId: c.id },
        operation: 'portal.signIn.link',
        requestId: request.requestId,
      },
      async (unit) => {
        const issued = await issueSignInLink(
          unit.db,
          unit.clock.now(),
          { type: 'contractor', id: c.id, organizationId: c.organization_id },
          settings.linkTtlMs,
        );
        await unit.audit({
          recordType: 'sign_in_link',
          recordId: issued.id,
          beforeRevision: null,
          afterRevision: null,
        });
        const back = request.next ? `?next=${encodeURIComponent(request.next)}` : '';
        const url = `${publicUrl.replace(/\/$/, '')}${CONTRACTOR_LINK_PATH}${issued.token}${back}`;
        const minutes = Math.round(settings.linkTtlMs / 60_000);
        await unit.sendMail({
          to: [c.email],
          subject: `Sign in to the ${c.name} contractor portal`,
          text: [
            `Use this link to sign in to the contractor portal of ${c.name}:`,
            '',
            url,
            '',
            `It works once, for ${minutes} minutes. If you did not ask to sign in, ignore this message.`,
          ].join('\n'),
          tags: { kind: 'portal.sign_in_link' },
        });
      },
    );
    sent += 1;
  }
  return sent;
}

/** Spends a contractor's link and starts a session in one unit; undefined when it does not work. */
export async function signInWithContractorLink(
  runtime: UnitRuntime,
  settings: SessionSettings,
  token: string,
  context: { userAgent: string | undefined; requestId: string },
): Promise<{ session: Session; token: string } | undefined> {
  const principal = await peekSignInLink(runtime.db.kysely, runtime.clock.now(), 'contractor', token);
  if (!principal) return undefined;
  return startPortalSession(
    runtime,
    settings,
    principal,
    'link',
    context,
    async (unit) => (await consumeSignInLink(unit, 'contractor', token)) !== undefined,
  );
}

/**
 * Starts the portal session of a contractor who has just accepted their invitation in this
 * request: the invitation link proved the mailbox as a sign-in link does, so accepting signs in
 * (decision 448). Its own unit, audited as a link sign-in (`portal.signIn`, a `web_session` row);
 * undefined when the contractor may not use the portal now (organization suspended, access off).
 */
export async function signInAfterAccept(
  runtime: UnitRuntime,
  settings: SessionSettings,
  joined: { contractorId: string; organizationId: string },
  context: { userAgent: string | undefined; requestId: string },
): Promise<{ session: Session; token: string } | undefined> {
  const principal: SessionPrincipal = {
    type: 'contractor',
    id: joined.contractorId,
    organizationId: joined.organizationId,
  };
  return startPortalSession(runtime, settings, principal, 'invitation', context);
}

/**
 * One unit that signs a contractor in, audited as `portal.signIn`: only while they may use the
 * portal, and only if `spend` (a sign-in link's single use) succeeds; undefined otherwise.
 */
function startPortalSession(
  runtime: UnitRuntime,
  settings: SessionSettings,
  principal: SessionPrincipal,
  method: 'link' | 'invitation',
  context: { userAgent: string | undefined; requestId: string },
  spend?: (unit: UnitOfWork) => Promise<boolean>,
): Promise<{ session: Session; token: string } | undefined> {
  return withUnit(
    runtime,
    {
      organizationId: principal.organizationId,
      actor: { type: 'contractor', contractorId: principal.id },
      operation: 'portal.signIn',
      requestId: context.requestId,
    },
    async (unit) => {
      if (!(await portalContractor(unit.db, principal.organizationId, principal.id))) return undefined;
      if (spend && !(await spend(unit))) return undefined;
      return startSession(unit, settings, { principal, method, userAgent: context.userAgent, id: newId() });
    },
  );
}
