import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../contract/errors.ts';
import { GLOBAL_BODY_LIMIT, type HttpPlugin } from '../../http/app.ts';
import { bodyTooLarge, declaredLength, limitedPayload } from '../../http/body-limits.ts';
import { findOperation } from '../../operations/catalog.ts';
import { toAppError } from '../../operations/error-mapping.ts';
import type { Services } from '../../services.ts';
import { SCRIPT, STYLESHEET } from '../assets.ts';
import { formBody, formToInput, safeBack } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { errorBox, layout } from '../layout.ts';
import { registerBulkEntries } from './bulk-entries.ts';
import { callOperation, callOperationNamed, checkCsrf, type Signed, sendHtml, signedIn } from './context.ts';
import { doneLine } from './done-words.ts';
import { refusedInPlace } from './in-place.ts';
import { registerLive } from './live.ts';
import { PAGES } from './pages/index.ts';
import { nextPage, resultPage } from './results.ts';
import { registerSessionRoutes } from './sessions-routes.ts';
import { registerSignInRoutes } from './sign-in-routes.ts';
import { inWords, refusalTitle } from './wording.ts';

const FORM_LIMIT = 64 * 1024;

/** What a page handler returns: the shell fills in the rest. */
export interface PageContent {
  title: string;
  current: string;
  body: Html;
  status?: number;
  refreshSeconds?: number;
}

/** What a page reads of its request: the path's parameters and the query string. */
export interface PageRequest {
  params: Record<string, string>;
  query: Record<string, string>;
}

/**
 * A page. After a refused form it is drawn again with `signed.refused` set, and the refused form
 * (`actionForm`) shows what was typed and why (in-place.ts).
 */
export type PageHandler = (services: Services, signed: Signed, request: PageRequest) => Promise<PageContent>;

/**
 * The dashboard under /dashboard: server-rendered pages (docs/decisions.md 235) over the same
 * catalog operations as the API, as the signed-in member. Reads call operations directly; every
 * change is a form POST to /dashboard/actions/<operation> with the session's CSRF token.
 */
export const dashboardRoutes: HttpPlugin = (app, services) => {
  app.get('/dashboard/assets/app.css', (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(STYLESHEET),
  );
  app.get('/dashboard/assets/app.js', (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(SCRIPT),
  );
  registerSignInRoutes(app, services);
  registerSessionRoutes(app, services);
  for (const [path, handler] of Object.entries(PAGES)) registerPage(app, services, path, handler);
  registerActions(app, services);
  registerBulkEntries(app, services);
  registerLive(app, services);
  registerFiles(app, services);
  registerNotFound(app, services);
};

/**
 * Any other address under /dashboard is a page for people: an HTML 404 in the dashboard's shell
 * (with the navigation when signed in), never the API's JSON error. Fastify matches every named
 * route before this wildcard.
 */
function registerNotFound(app: FastifyInstance, services: Services): void {
  app.get('/dashboard/*', async (request, reply) => {
    const signed = await signedIn(services, request);
    return notFound(reply, signed);
  });
}

/**
 * The 404 page: for an address no page has, and for a page whose record does not exist (an
 * unknown or malformed id, or one of another organization, which reads as unknown).
 */
function notFound(reply: FastifyReply, signed: Signed | undefined, requestId?: string): FastifyReply {
  return sendHtml(
    reply,
    404,
    layout({
      title: 'Page not found',
      ...(signed ? { viewer: signed.viewer } : {}),
      body: html`<p>There is no page at this address. It may have been mistyped, the link is out of date, or what it showed was removed.</p>
<p><a href="/dashboard">${signed ? 'Go to Home' : 'Sign in'}</a></p>${
        requestId
          ? html`<p class="hint">Error code <code>not_found</code> · request id <code>${requestId}</code></p>`
          : ''
      }`,
    }),
  );
}

/** A page's read refused because its record is unknown: the path's id is not found or malformed. */
function isUnknownRecord(error: unknown, params: Readonly<Record<string, string>>): boolean {
  if (!(error instanceof AppError)) return false;
  if (error.code === 'not_found') return true;
  const field = error.field ?? '';
  return (
    error.code === 'invalid_input' &&
    Object.keys(params).length > 0 &&
    (field === 'id' || field.endsWith('Id'))
  );
}

/** Files a page links to (an invoice's PDF), read through the operation's file form. */
function registerFiles(app: FastifyInstance, services: Services): void {
  app.get<{ Params: { id: string } }>('/dashboard/receipts/originals/:id', async (request, reply) => {
    const signed = await signedIn(services, request);
    if (!signed) return toSignIn(reply);
    try {
      const data = (await callOperation(services, signed, 'receipts.originals.get', {
        id: request.params.id,
      })) as {
        file_name: string;
        media_type: string;
        content_base64: string;
      };
      // Images and PDFs are shown as they are; anything else (XML e-invoices) as inert text, so a
      // hostile document can never run in this origin.
      const shown = /^(image\/(jpeg|png|webp)|application\/pdf)$/.test(data.media_type)
        ? data.media_type
        : 'text/plain; charset=utf-8';
      return reply
        .type(shown)
        .header('Cache-Control', 'private, no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .header(
          'Content-Disposition',
          `inline; filename="${data.file_name.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
        )
        .header('X-Frame-Options', 'SAMEORIGIN')
        .send(Buffer.from(data.content_base64, 'base64'));
    } catch (error) {
      return failure(services, request, reply, signed, error, '/dashboard/receipts');
    }
  });

  fileDownload(
    app,
    services,
    '/dashboard/invoices/:id/pdf',
    'invoices.pdf',
    'inline',
    (id) => `/dashboard/invoices/${id}`,
  );
  fileDownload(
    app,
    services,
    '/dashboard/contractors/agreements/:id/download',
    'contractors.agreements.download',
    'attachment',
    () => '/dashboard/contractors',
  );
  fileDownload(
    app,
    services,
    '/dashboard/contractors/templates/:id/download',
    'contractors.templates.download',
    'attachment',
    (id) => `/dashboard/contractors/templates/${id}`,
  );
  // The tax year summary as CSV: its input is the year in the query, not an id.
  fileDownload(
    app,
    services,
    '/dashboard/contractors/tax-summary/csv',
    'contractors.taxSummary',
    'attachment',
    () => '/dashboard/contractors/tax-summary',
    (request) => ({
      year: /^\d{4}$/.test(request.query.year ?? '') ? Number(request.query.year) : request.query.year,
    }),
  );
  fileDownload(
    app,
    services,
    '/dashboard/entries/exports/:id/csv',
    'entries.exports.download',
    'attachment',
    (id) => `/dashboard/entries/exports/${id}`,
  );
}

/** A file's address: the record's id in the path; some files take their input from the query. */
type FileRoute = { Params: { id: string }; Querystring: Record<string, string | undefined> };

/**
 * A file an operation returns (its catalog `file` form), sent as the file itself; a failure is the
 * usual page with a way back to the record.
 */
function fileDownload(
  app: FastifyInstance,
  services: Services,
  path: string,
  operationName: string,
  disposition: 'inline' | 'attachment',
  backTo: (encodedId: string) => string,
  inputOf: (request: FastifyRequest<FileRoute>) => Record<string, unknown> = (request) => ({
    id: request.params.id,
  }),
): void {
  app.get<FileRoute>(path, async (request, reply) => {
    const signed = await signedIn(services, request);
    if (!signed) return toSignIn(reply);
    const operation = findOperation(operationName);
    try {
      const data = await callOperationNamed(services, signed, operationName, inputOf(request));
      const file = operation?.file?.from(data);
      if (!file) throw new Error(`${operationName} has no file form`);
      return reply
        .type(file.mediaType)
        .header('Cache-Control', 'no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .header(
          'Content-Disposition',
          `${disposition}; filename="${file.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
        )
        .send(file.bytes);
    } catch (error) {
      return failure(services, request, reply, signed, error, backTo(encodeURIComponent(request.params.id)));
    }
  });
}

function registerPage(app: FastifyInstance, services: Services, path: string, handler: PageHandler): void {
  app.get<{ Params: Record<string, string>; Querystring: Record<string, string> }>(
    path,
    async (request, reply) => {
      const signed = await signedIn(services, request);
      if (!signed) return toSignIn(reply);
      const done = doneLine(String(request.query.done ?? ''));
      try {
        const content = await handler(services, signed, request);
        return sendHtml(
          reply,
          content.status ?? 200,
          layout({ ...content, viewer: signed.viewer, notice: done }),
        );
      } catch (error) {
        if (isUnknownRecord(error, request.params)) return notFound(reply, signed, request.id);
        return failure(services, request, reply, signed, error, path, 'open this page');
      }
    },
  );
}

/** The member behind an action, known from the cookie before the body was read. */
const SIGNED = new WeakMap<FastifyRequest, Signed>();

/** An action's form may be as large as its operation's body limit, else 64 KiB. */
function actionLimit(name: string): number {
  return findOperation(name)?.maxBodyBytes ?? FORM_LIMIT;
}

function tooLargeForm(name: string): AppError {
  const operation = findOperation(name);
  return bodyTooLarge(actionLimit(name), operation ? `the form of ${operation.name}` : 'this form');
}

function registerActions(app: FastifyInstance, services: Services): void {
  app.post<{ Params: { operation: string } }>(
    '/dashboard/actions/:operation',
    {
      // The largest operation body (a statement file in base64), for a signed-in member only;
      // each operation's own limit is held while the body arrives.
      bodyLimit: GLOBAL_BODY_LIMIT,
      // The session before the body (issue 31 part 2): without one the answer is the sign-in
      // page, and a declared length over the action's limit is refused, before anything is read.
      onRequest: async (request, reply) => {
        const signed = await signedIn(services, request);
        if (!signed) return toSignIn(reply);
        SIGNED.set(request, signed);
        const length = declaredLength(request);
        const limit = actionLimit(request.params.operation);
        if (length !== undefined && length > limit)
          return failure(
            services,
            request,
            reply,
            signed,
            tooLargeForm(request.params.operation),
            '/dashboard',
          );
        return undefined;
      },
      preParsing: async (request, _reply, payload) => {
        const limit = actionLimit(request.params.operation);
        return limitedPayload(payload, limit, () => tooLargeForm(request.params.operation));
      },
      // A chunked form over the limit fails while it is read: the member gets the failure page.
      errorHandler: (error, request, reply) => {
        const signed = SIGNED.get(request);
        if (!signed) throw error;
        return failure(services, request, reply, signed, error, '/dashboard');
      },
    },
    async (request, reply) => {
      const signed = SIGNED.get(request);
      if (!signed) return toSignIn(reply);
      const operation = findOperation(request.params.operation);
      if (!operation) return reply.callNotFound();
      const size = Buffer.isBuffer(request.body) ? request.body.length : 0;
      const form = size <= actionLimit(operation.name) ? formBody(request) : undefined;
      const back = safeBack(form?.get('_back'));
      try {
        if (!form) throw tooLargeForm(operation.name);
        checkCsrf(request, signed.token, form.get('_csrf'));
        const data = await callOperationNamed(
          services,
          signed,
          operation.name,
          formToInput(form, operation.input, signed.viewer.timeZone),
        );
        const shown = resultPage(operation.name, data, back);
        if (shown) return sendHtml(reply, 200, layout({ ...shown, viewer: signed.viewer }));
        const next = nextPage(operation.name, data);
        if (next) return reply.redirect(next, 303);
        const separator = back.includes('?') ? '&' : '?';
        return reply.redirect(`${back}${separator}done=${encodeURIComponent(operation.name)}`, 303);
      } catch (error) {
        // A consolidation whose preview went stale is refused; the review comes back, reloaded.
        const code = error instanceof AppError ? error.code : undefined;
        if (
          operation.name === 'matching.receiptConsolidation.confirm' &&
          (code === 'consolidation_stale' || code === 'revision_conflict') &&
          back.startsWith('/dashboard/consolidations?')
        ) {
          return reply.redirect(`${back}&stale=1`, 303);
        }
        const { appError, unexpected } = toAppError(error);
        if (!unexpected) {
          const inPlace = await refusedInPlace(services, signed, operation.name, form, back, appError);
          if (inPlace) {
            if (appError.retryAfterSeconds !== undefined)
              reply.header('Retry-After', String(appError.retryAfterSeconds));
            return sendHtml(reply, inPlace.status ?? 400, layout({ ...inPlace, viewer: signed.viewer }));
          }
        }
        return failure(services, request, reply, signed, error, back);
      }
    },
  );
}

/**
 * The error page, for a failure with no form to go back to (a server error, a CSRF refusal, a page
 * or file that cannot be read): what happened in words, the stable code and the request id for
 * support, and a way back.
 */
function failure(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  signed: Signed,
  error: unknown,
  back: string,
  doing?: string,
): FastifyReply {
  const { appError, unexpected } = toAppError(error);
  if (unexpected) services.logger.error({ err: error, requestId: request.id }, 'dashboard request failed');
  if (appError.retryAfterSeconds !== undefined)
    reply.header('Retry-After', String(appError.retryAfterSeconds));
  return sendHtml(
    reply,
    appError.status,
    layout({
      title: refusalTitle(appError.code, appError.status),
      viewer: signed.viewer,
      body: html`${errorBox(inWords(appError, { ...signed.viewer, doing }), appError.code, request.id)}
<p><a href="${back}">Go back</a> · <a href="/dashboard">Home</a></p>`,
    }),
  );
}

function toSignIn(reply: FastifyReply): FastifyReply {
  return reply.redirect('/dashboard/sign-in', 303);
}
