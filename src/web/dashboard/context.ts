import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNTING_SCOPES, isRole } from '../../contract/access.ts';
import { AppError } from '../../contract/errors.ts';
import {
  findOperation,
  type OperationInput,
  type OperationName,
  type OperationOutput,
} from '../../operations/catalog.ts';
import type { Principal } from '../../operations/context.ts';
import { invoke } from '../../operations/execute.ts';
import type { Services } from '../../services.ts';
import { readCookie, sessionCookieName } from '../../sessions/cookies.ts';
import { memberProfile } from '../../sessions/principals.ts';
import { readSession, type Session } from '../../sessions/store.ts';
import { csrfMatches, csrfToken } from '../../sessions/tokens.ts';
import { errorBox, layout, type Viewer } from '../layout.ts';
import type { Refused } from './refused.ts';
import { inWords, refusalTitle } from './wording.ts';

/** A request of a signed-in member: their session, the principal operations see, the header facts. */
export interface Signed {
  session: Session;
  token: string;
  principal: Principal;
  viewer: Viewer;
  requestId: string;
  /** Set while a page is drawn again after one of its forms was refused (in-place.ts). */
  refused?: Refused;
}

export function memberCookieName(services: Services): string {
  return sessionCookieName('member', services.config.sessions.secureCookies);
}

/**
 * The signed-in member behind the request's cookie, or undefined. The member's role is read
 * fresh each time, so a role change applies to the very next page, and a suspended or removed
 * member has no session at all (readSession ends it).
 */
export async function signedIn(services: Services, request: FastifyRequest): Promise<Signed | undefined> {
  const token = readCookie(request.headers.cookie, memberCookieName(services));
  const { db, clock, config } = services;
  const session = await readSession(db.kysely, clock, config.sessions, 'member', token);
  if (!session || token === undefined) return undefined;
  const { organizationId, id: memberId } = session.principal;
  const profile = await memberProfile(db.kysely, organizationId, memberId);
  if (!profile || !isRole(profile.role)) return undefined;
  return {
    session,
    token,
    requestId: request.id,
    principal: {
      organizationId,
      memberId,
      role: profile.role,
      // The dashboard acts with every accounting scope; the member's role decides what is allowed.
      scopes: new Set(ACCOUNTING_SCOPES),
      credentialId: `session:${session.id}`,
      credentialType: 'session',
    },
    viewer: {
      name: profile.name ?? profile.email,
      role: profile.role,
      organizationName: profile.organizationName,
      timeZone: profile.timeZone,
      csrf: csrfToken(token),
    },
  };
}

/**
 * A state change must carry the session's CSRF token, and a browser that says where the form came
 * from (Origin) must say it came from this host. SameSite=Lax already keeps the cookie off
 * cross-site POSTs; the token is the second, independent lock.
 */
export function checkCsrf(request: FastifyRequest, token: string, submitted: unknown): void {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      host = undefined;
    }
    if (host !== request.headers.host) {
      throw new AppError(
        'csrf_failed',
        'The form was sent from another site; reload the page and try again.',
      );
    }
  }
  if (!csrfMatches(token, submitted)) {
    throw new AppError(
      'csrf_failed',
      'The form has no valid security token (it may be older than your session); reload the page and try again.',
    );
  }
}

/**
 * The dashboard transport: a catalog operation run through the same pipeline as the API and MCP
 * (access, rate limit, validation, idempotency, one transaction, audit), as the signed-in member,
 * recorded with transport `dashboard` and credential `session:<id>`.
 */
export async function callOperation<N extends OperationName>(
  services: Services,
  signed: Signed,
  name: N,
  input: OperationInput<N>,
): Promise<OperationOutput<N>> {
  // Every operation's input is an object; the named call checks it against the schema.
  return (await callOperationNamed(
    services,
    signed,
    name,
    input as Record<string, unknown>,
  )) as OperationOutput<N>;
}

/** Most items a picker or a page's full list reads (`everyItem`): beyond it a page must search. */
export const EVERY_ITEM_CAP = 1000;

/**
 * Every item of an offset-paged list, a page of 100 at a time, up to `EVERY_ITEM_CAP`: the choices
 * of a picker (categories, accounts, cards, job roles, templates, members) must not stop at the
 * first page, as they did at 100.
 */
export async function everyItem<N extends OperationName>(
  services: Services,
  signed: Signed,
  name: N,
  input: Omit<OperationInput<N>, 'limit' | 'offset'>,
): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let offset: number | null = 0;
  while (offset !== null && items.length < EVERY_ITEM_CAP) {
    const page = (await callOperationNamed(services, signed, name, { ...input, limit: 100, offset })) as {
      items?: Array<Record<string, unknown>>;
      nextOffset?: number | null;
    };
    items.push(...(page.items ?? []));
    offset = page.nextOffset ?? null;
  }
  return items.slice(0, EVERY_ITEM_CAP);
}

/**
 * `callOperation` for a name known only at run time (the action handler's `/dashboard/actions/<op>`,
 * a form's operation): the input is checked by the operation's schema, the output is unknown.
 */
export async function callOperationNamed(
  services: Services,
  signed: Signed,
  name: string,
  input: Record<string, unknown>,
): Promise<unknown> {
  const operation = findOperation(name);
  if (!operation) throw new AppError('not_found', `No operation ${name}.`);
  const { data } = await invoke(services, {
    operation,
    principal: signed.principal,
    input,
    idempotencyHeader: undefined,
    requestId: signed.requestId,
    inputSource: 'page',
  });
  return data;
}

/** Sends an HTML page with the headers every dashboard answer carries. */
export function sendHtml(reply: FastifyReply, status: number, page: string): FastifyReply {
  return (
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      // A page that set its own (the sign-in link's no-referrer) keeps it.
      .header('Referrer-Policy', reply.getHeader('Referrer-Policy') ?? 'same-origin')
      .header('X-Content-Type-Options', 'nosniff')
      .header('X-Frame-Options', 'DENY')
      .header(
        'Content-Security-Policy',
        // connect-src: the upload script posts files with XMLHttpRequest (its progress bar).
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      )
      .send(page)
  );
}

/** The page for a form whose CSRF token was refused (403), in the member's shell, nothing changed. */
export function csrfRefused(
  reply: FastifyReply,
  request: FastifyRequest,
  signed: Signed,
  error: unknown,
): FastifyReply {
  const message = error instanceof Error ? error.message : '';
  return sendHtml(
    reply,
    403,
    layout({
      title: refusalTitle('csrf_failed', 403),
      viewer: signed.viewer,
      body: errorBox(inWords({ code: 'csrf_failed', message }, signed.viewer), 'csrf_failed', request.id),
    }),
  );
}
