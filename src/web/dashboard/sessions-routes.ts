import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import { endSession, listSessions } from '../../sessions/store.ts';
import { withUnit } from '../../unit/with-unit.ts';
import { formBody } from '../forms.ts';
import { html, when } from '../html.ts';
import { layout, table } from '../layout.ts';
import { checkCsrf, csrfRefused, sendHtml, signedIn } from './context.ts';

/** My sessions: every live session of the signed-in member, each of which they can end. */
export function registerSessionRoutes(app: FastifyInstance, services: Services): void {
  app.get('/dashboard/sessions', async (request, reply) => {
    const signed = await signedIn(services, request);
    if (!signed) return reply.redirect('/dashboard/sign-in', 303);
    const sessions = await listSessions(services.db.kysely, services.clock, signed.session.principal);
    const ended = (request.query as Record<string, unknown>).ended !== undefined;
    const rows = sessions.map(
      (
        s,
      ) => html`<tr><td>${when(s.createdAt, signed.viewer.timeZone)}${s.id === signed.session.id ? html` <strong>(this browser)</strong>` : ''}</td>
<td>${s.method === 'oidc' ? 'single sign-on' : 'e-mailed link'}</td><td>${s.userAgent ?? 'unknown browser'}</td>
<td>${when(s.lastSeenAt, signed.viewer.timeZone)}</td><td>${when(s.expiresAt, signed.viewer.timeZone)}</td>
<td><form method="post" action="/dashboard/sessions/end"><input type="hidden" name="_csrf" value="${signed.viewer.csrf}">
<input type="hidden" name="sessionId" value="${s.id}"><button class="secondary" type="submit">End<span class="skip"> session started ${when(s.createdAt, signed.viewer.timeZone)}</span></button></form></td></tr>`,
    );
    return sendHtml(
      reply,
      200,
      layout({
        title: 'My sessions',
        current: 'sessions',
        viewer: signed.viewer,
        notice: ended ? 'The session is ended.' : undefined,
        body: html`<p>Signed-in browsers. A session ends after ${Math.round(services.config.sessions.idleMs / 60_000)} idle minutes or ${Math.round(services.config.sessions.absoluteMs / 3_600_000)} hours after sign-in.</p>
${table(['Signed in', 'How', 'Browser', 'Last seen', 'Ends at the latest', ''], rows, 'No live sessions.')}`,
      }),
    );
  });

  app.post('/dashboard/sessions/end', { bodyLimit: 16 * 1024 }, async (request, reply) => {
    const signed = await signedIn(services, request);
    if (!signed) return reply.redirect('/dashboard/sign-in', 303);
    const form = formBody(request);
    try {
      checkCsrf(request, signed.token, form.get('_csrf'));
    } catch (error) {
      return csrfRefused(reply, request, signed, error);
    }
    const sessionId = form.get('sessionId') ?? '';
    await withUnit(
      services,
      {
        organizationId: signed.principal.organizationId,
        actor: {
          type: 'member',
          memberId: signed.principal.memberId,
          credentialId: signed.principal.credentialId,
        },
        operation: 'dashboard.sessions.end',
        transport: 'dashboard',
        requestId: request.id,
      },
      // A malformed id ends nothing (and never reaches a uuid column as garbage).
      async (unit) =>
        /^[0-9a-f-]{36}$/i.test(sessionId) &&
        endSession(unit, signed.session.principal, sessionId, 'ended_by_owner'),
    );
    return reply.redirect('/dashboard/sessions?ended', 303);
  });
}
