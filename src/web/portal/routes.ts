import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isId } from '../../contract/formats.ts';
import { parseMarkdown } from '../../contractors/agreement-markdown.ts';
import { toAgreement } from '../../contractors/agreement-wire.ts';
import { agreementFile, loadAgreement } from '../../contractors/agreements.ts';
import { ownAgreements, ownHours, ownPayouts } from '../../contractors/portal-queries.ts';
import type { HttpPlugin } from '../../http/app.ts';
import { localDateIn } from '../../invoicing/calendar.ts';
import { toAppError } from '../../operations/error-mapping.ts';
import type { Services } from '../../services.ts';
import { sendHtml } from '../dashboard/context.ts';
import { formBody } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { errorBox } from '../layout.ts';
import { checkPortalCsrf, portalSign, portalSubmitHours } from './actions.ts';
import { type PortalSigned, portalLayout, portalSignedIn, toSignIn } from './context.ts';
import { type AgreementDocument, agreementBody, agreementsBody, hoursBody, paymentsBody } from './pages.ts';
import { registerPortalSignIn } from './sign-in-routes.ts';

const FORM_LIMIT = 16 * 1024;
/** The contractor an action's `onRequest` hook found, for its handler. */
const SIGNED = new WeakMap<FastifyRequest, PortalSigned>();
type Req = FastifyRequest<{ Params: Record<string, string>; Querystring: Record<string, string> }>;

/** A page of the signed-in contractor; anyone else goes to the sign-in page. */
function page(
  app: FastifyInstance,
  services: Services,
  path: string,
  render: (signed: PortalSigned, request: Req) => Promise<{ title: string; current: string; body: Html }>,
): void {
  app.get(path, async (request: Req, reply) => {
    const signed = await portalSignedIn(services, request);
    if (!signed) return toSignIn(reply, request.url);
    try {
      const content = await render(signed, request);
      const notice = doneNotice(request.query.done, signed);
      return sendHtml(reply, 200, portalLayout({ ...content, signed, notice }));
    } catch (error) {
      return failure(services, request, reply, signed, error, '/portal/hours');
    }
  });
}

/** What the page says after the action that led to it (`?done=`). */
function doneNotice(done: string | undefined, signed: PortalSigned): string | undefined {
  const { displayName, organizationName } = signed.contractor;
  if (done === 'hours') return 'Hours submitted.';
  if (done === 'signed') return 'Agreement signed.';
  if (done === 'joined') {
    return `Welcome, ${displayName}. You joined the contractor portal of ${organizationName} and are signed in.`;
  }
  return undefined;
}

/** A form of the signed-in contractor: CSRF first, then the change, then back to a page. */
function action(
  app: FastifyInstance,
  services: Services,
  path: string,
  run: (signed: PortalSigned, form: URLSearchParams, request: Req) => Promise<string>,
  back: (request: Req) => string,
): void {
  app.post<{ Params: Record<string, string>; Querystring: Record<string, string> }>(
    path,
    {
      bodyLimit: FORM_LIMIT,
      // The session before the body (decision 410): a stranger is sent to sign in, unread.
      onRequest: async (request, reply) => {
        const signed = await portalSignedIn(services, request);
        if (!signed) return toSignIn(reply);
        SIGNED.set(request, signed);
        return undefined;
      },
    },
    async (request: Req, reply) => {
      const signed = SIGNED.get(request);
      if (!signed) return toSignIn(reply);
      try {
        const form = formBody(request);
        checkPortalCsrf(request, signed, form.get('_csrf'));
        return reply.redirect(await run(signed, form, request), 303);
      } catch (error) {
        return failure(services, request, reply, signed, error, back(request));
      }
    },
  );
}

function failure(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  signed: PortalSigned,
  error: unknown,
  back: string,
): FastifyReply {
  const { appError, unexpected } = toAppError(error);
  if (unexpected) services.logger.error({ err: error, requestId: request.id }, 'portal request failed');
  const field = appError.field ? ` (field ${appError.field})` : '';
  return sendHtml(
    reply,
    appError.status,
    portalLayout({
      title: 'That did not work',
      signed,
      body: html`${errorBox(`${appError.message}${field}`, appError.code, request.id)}<p><a href="${back}">Go back</a></p>`,
    }),
  );
}

/** The document as the page shows it: Markdown drawn, plain text as written, a file named. */
function readable(mediaType: string, bytes: Buffer): AgreementDocument {
  if (mediaType === 'text/markdown')
    return { kind: 'markdown', blocks: parseMarkdown(bytes.toString('utf8')) };
  if (mediaType === 'text/plain') return { kind: 'text', text: bytes.toString('utf8') };
  return { kind: 'file' };
}

/** An agreement id from the path: anything not shaped like one is simply not found. */
function agreementId(request: Req): string {
  const id = request.params.id ?? '';
  return isId(id) ? id : '00000000-0000-7000-8000-000000000000';
}

/**
 * The contractor portal under /portal (the invitation pages stay at /portal/invitations/): my
 * hours, my agreements, my payments. Every read and change is scoped to the signed-in contractor
 * of their organization; another contractor's record is "not found", never shown.
 */
export const contractorPortalRoutes: HttpPlugin = (app, services) => {
  registerPortalSignIn(app, services);
  const { db } = services;
  app.get('/portal', async (_request, reply) => reply.redirect('/portal/hours', 303));

  page(app, services, '/portal/hours', async (signed) => ({
    title: 'My hours',
    current: 'hours',
    body: hoursBody(
      await ownHours(db.kysely, signed.contractor.organizationId, signed.contractor.contractorId),
      signed.csrf,
      // Today on the organization's calendar, as the dashboard reads dates.
      localDateIn(signed.contractor.timeZone, services.clock.now()),
    ),
  }));
  action(
    app,
    services,
    '/portal/hours',
    async (signed, form, request) => {
      await portalSubmitHours(services, signed, form, request.id);
      return '/portal/hours?done=hours';
    },
    () => '/portal/hours',
  );

  page(app, services, '/portal/agreements', async (signed) => ({
    title: 'My agreements',
    current: 'agreements',
    body: agreementsBody(
      await ownAgreements(db.kysely, signed.contractor.organizationId, signed.contractor.contractorId),
      signed.contractor.timeZone,
    ),
  }));
  page(app, services, '/portal/agreements/:id', async (signed, request) => {
    const { organizationId, contractorId } = signed.contractor;
    const row = await loadAgreement(db.kysely, organizationId, agreementId(request), contractorId);
    const file = await agreementFile(db.kysely, organizationId, row.id, contractorId);
    return {
      title: row.title,
      current: 'agreements',
      body: agreementBody(
        toAgreement(row),
        file.signed ? null : readable(row.media_type, file.bytes),
        signed.csrf,
        signed.contractor.timeZone,
      ),
    };
  });
  action(
    app,
    services,
    '/portal/agreements/:id/sign',
    async (signed, form, request) => {
      const signedRow = await portalSign(services, signed, agreementId(request), form, request);
      return `/portal/agreements/${signedRow.id}?done=signed`;
    },
    (request) => `/portal/agreements/${agreementId(request)}`,
  );
  app.get('/portal/agreements/:id/download', async (request: Req, reply) => {
    const signed = await portalSignedIn(services, request);
    if (!signed) return toSignIn(reply);
    try {
      const { organizationId, contractorId } = signed.contractor;
      const file = await agreementFile(db.kysely, organizationId, agreementId(request), contractorId);
      return reply
        .type(file.mediaType)
        .header('Cache-Control', 'no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .header(
          'Content-Disposition',
          `attachment; filename="${file.fileName.replace(/[^A-Za-z0-9._() -]/g, '_')}"`,
        )
        .send(file.bytes);
    } catch (error) {
      return failure(services, request, reply, signed, error, '/portal/agreements');
    }
  });

  page(app, services, '/portal/payments', async (signed) => ({
    title: 'My payments',
    current: 'payments',
    body: paymentsBody(
      await ownPayouts(db.kysely, signed.contractor.organizationId, signed.contractor.contractorId),
    ),
  }));
};
