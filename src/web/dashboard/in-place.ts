import type { AppError } from '../../contract/errors.ts';
import type { Services } from '../../services.ts';
import { html, raw } from '../html.ts';
import type { Signed } from './context.ts';
import { PAGES } from './pages/index.ts';
import { openAround } from './refill.ts';
import { type Refused, refusalBox } from './refused.ts';
import type { PageContent, PageHandler, PageRequest } from './routes.ts';

/** The page drawn at a dashboard path, with the path's parameters (`/dashboard/contractors/:id`). */
export function pageAt(
  pathname: string,
  pages: Readonly<Record<string, PageHandler>> = PAGES,
): { handler: PageHandler; params: Record<string, string> } | undefined {
  const parts = pathname.split('/');
  let best: { handler: PageHandler; params: Record<string, string>; wild: number } | undefined;
  for (const [pattern, handler] of Object.entries(pages)) {
    const want = pattern.split('/');
    if (want.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let wild = 0;
    const fits = want.every((segment, i) => {
      const part = parts[i] ?? '';
      if (!segment.startsWith(':')) return segment === part;
      wild += 1;
      if (!part) return false;
      try {
        params[segment.slice(1)] = decodeURIComponent(part);
      } catch {
        return false;
      }
      return true;
    });
    // A named page (`/dashboard/contractors/roles`) wins over a parameter (`…/:id`).
    if (fits && (!best || wild < best.wild)) best = { handler, params, wild };
  }
  return best && { handler: best.handler, params: best.params };
}

/**
 * A client error of a dashboard form comes back as the page the form was on (its `_back`), drawn
 * again with the refusal: the refused form (`actionForm` finds it) keeps what was typed and shows
 * the message beside the field it names, or above its fields; when no form on the page takes it
 * (the member's role no longer offers the form), above the page. The status is the error's.
 * Undefined when there is no page to draw (server errors, CSRF, a page that cannot be drawn),
 * and the caller shows the error page.
 */
export async function refusedInPlace(
  services: Services,
  signed: Signed,
  operation: string,
  form: URLSearchParams | undefined,
  back: string,
  appError: AppError,
): Promise<PageContent | undefined> {
  if (!form || appError.status >= 500 || appError.code === 'csrf_failed') return undefined;
  const url = new URL(back, 'http://dashboard.invalid');
  const page = pageAt(url.pathname);
  if (!page) return undefined;
  const typed: Record<string, string[]> = {};
  for (const [name, value] of form) {
    if (name.startsWith('_') || name === 'idempotencyKey') continue;
    typed[name] = [...(typed[name] ?? []), value];
  }
  const refused: Refused = {
    operation,
    typed,
    error: {
      code: appError.code,
      message: appError.message,
      field: appError.field,
      details: appError.details,
      retryAfterSeconds: appError.retryAfterSeconds,
      requestId: signed.requestId,
    },
    placed: false,
  };
  const request: PageRequest = { params: page.params, query: Object.fromEntries(url.searchParams) };
  let content: PageContent;
  try {
    content = await page.handler(services, { ...signed, refused }, request);
  } catch {
    // The page itself cannot be drawn now (the record is gone, the role may not read it).
    return undefined;
  }
  const body = refused.placed ? content.body : html`${refusalBox(refused, signed.viewer)}${content.body}`;
  // No self-refresh (an import's progress page): the address is the action's, which a reload by
  // GET does not draw, and the typed values would be lost.
  const { refreshSeconds: _refresh, ...shown } = content;
  return { ...shown, body: raw(openAround(body.text)), status: appError.status };
}
