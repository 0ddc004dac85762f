import { type Html, html, raw } from './html.ts';

export interface Viewer {
  name: string;
  role: string;
  organizationName: string;
  /** The organization's IANA zone: every time on the pages is shown on its clock (`when`). */
  timeZone: string;
  csrf: string;
}

export interface PageOptions {
  title: string;
  /** The nav entry to mark current ('home', 'webhooks', ...). */
  current?: string;
  viewer?: Viewer;
  notice?: string | undefined;
  body: Html;
  /**
   * Reloads the page every n seconds while work runs, for a browser without script only: with
   * script the page's live region follows the work in place (dashboard/live.ts).
   */
  refreshSeconds?: number;
}

const NAV: ReadonlyArray<{ key: string; label: string; href: string; adminOnly?: boolean }> = [
  { key: 'home', label: 'Home', href: '/dashboard' },
  { key: 'receipts', label: 'Receipts', href: '/dashboard/receipts' },
  { key: 'transactions', label: 'Transactions', href: '/dashboard/transactions' },
  { key: 'ledger', label: 'Ledger', href: '/dashboard/entries' },
  { key: 'accounts', label: 'Accounts', href: '/dashboard/accounts' },
  { key: 'invoices', label: 'Invoices', href: '/dashboard/invoices' },
  { key: 'contractors', label: 'Contractors', href: '/dashboard/contractors' },
  { key: 'webhooks', label: 'Webhooks', href: '/dashboard/webhooks', adminOnly: true },
  { key: 'admin', label: 'Administration', href: '/dashboard/admin', adminOnly: true },
  { key: 'sessions', label: 'My sessions', href: '/dashboard/sessions' },
];

/** The page shell: skip link, header with navigation and sign-out, one `main` landmark. */
export function layout(options: PageOptions): string {
  const { viewer } = options;
  const nav = viewer
    ? html`<nav class="main" aria-label="Main"><ul>${NAV.filter(
        (item) => !item.adminOnly || viewer.role === 'admin',
      ).map(
        (item) =>
          html`<li><a href="${item.href}"${raw(item.key === options.current ? ' aria-current="page"' : '')}>${item.label}</a></li>`,
      )}</ul></nav>
      <form method="post" action="/dashboard/sign-out"><input type="hidden" name="_csrf" value="${viewer.csrf}">
      <span class="muted-light">${viewer.name} (${viewer.role})</span> <button class="secondary" type="submit">Sign out</button></form>`
    : '';
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
${options.refreshSeconds ? html`<noscript><meta http-equiv="refresh" content="${options.refreshSeconds}"></noscript>` : ''}
<title>${options.title} · Accounting</title>
<link rel="stylesheet" href="/dashboard/assets/app.css">
<script src="/dashboard/assets/app.js" defer></script>
</head><body>
<a class="skip" href="#content">Skip to content</a>
<header class="top"><span class="org">${viewer?.organizationName ?? 'Accounting'}</span>${nav}</header>
<main id="content" tabindex="-1">
<h1>${options.title}</h1>
${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''}
${options.body}
</main></body></html>
`.text;
}

/** A failure the member can act on: what happened, the stable code, and the request id to quote. */
export function errorBox(message: string, code: string, requestId: string): Html {
  return html`<div class="error" role="alert"><p><strong>${message}</strong></p>
<p class="hint">Error code <code>${code}</code> · request id <code>${requestId}</code> (quote it when asking for help).</p></div>`;
}

/** A column heading that sorts the list: its words, the link, and whether the list is sorted by it. */
export interface SortableHeader {
  label: string;
  cell: Html;
  sorted?: 'ascending' | 'descending' | undefined;
}

/**
 * A heading link that sorts a list by its column, keeping the list's other parameters (filters,
 * search) and starting again at the first page: descending first, the other way when already so.
 * `orders` names the column's two sorts ([descending, ascending]) and how each reads.
 */
export function sortHeader(
  label: string,
  path: string,
  params: Record<string, string>,
  current: string,
  orders: { desc: [string, string]; asc: [string, string] },
): SortableHeader {
  const sorted =
    current === orders.desc[0] ? 'descending' : current === orders.asc[0] ? 'ascending' : undefined;
  const [next, words] = sorted === 'descending' ? orders.asc : orders.desc;
  const query = new URLSearchParams({ ...params, sort: next }).toString();
  const arrow = sorted === 'descending' ? ' ↓' : sorted === 'ascending' ? ' ↑' : '';
  return {
    label,
    sorted,
    cell: html`<a href="${path}?${query}">${label}<span aria-hidden="true">${arrow}</span><span class="visually-hidden">, sort ${words}</span></a>`,
  };
}

/**
 * A table, or the empty state in its place. `caption` names the table and its scrolling region for
 * assistive technology; it is not drawn, since the section's heading already says it on screen.
 */
export function table(
  headers: readonly (string | SortableHeader)[],
  rows: readonly Html[],
  empty: string,
  caption?: string,
): Html {
  if (rows.length === 0) return html`<p class="empty">${empty}</p>`;
  // The wrapper scrolls sideways on a narrow screen; focusable, so a keyboard can scroll it too.
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${caption ?? headers.map((h) => (typeof h === 'string' ? h : h.label)).join(', ')}"><table>${caption ? html`<caption class="visually-hidden">${caption}</caption>` : ''}
<thead><tr>${headers.map((h) =>
    typeof h === 'string'
      ? html`<th scope="col">${h}</th>`
      : html`<th scope="col"${h.sorted ? html` aria-sort="${h.sorted}"` : ''}>${h.cell}</th>`,
  )}</tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

/**
 * Previous/next links for offset pagination; the page is the last when shorter than the limit.
 * When one page holds several paged lists, each names its own offset parameter (`key`) and its
 * navigation (`label`).
 */
export function pager(
  path: string,
  params: Record<string, string>,
  offset: number,
  limit: number,
  count: number,
  { key = 'offset', label = 'Pagination' }: { key?: string; label?: string } = {},
): Html {
  const link = (to: number) => `${path}?${new URLSearchParams({ ...params, [key]: String(to) }).toString()}`;
  const previous = offset > 0 ? html`<a href="${link(Math.max(0, offset - limit))}">Previous page</a>` : '';
  const next = count === limit ? html`<a href="${link(offset + limit)}">Next page</a>` : '';
  if (!previous && !next) return html``;
  return html`<nav class="pager" aria-label="${label}">${previous}${next}</nav>`;
}

/** Next link for cursor pagination. */
export function cursorPager(path: string, params: Record<string, string>, nextCursor: unknown): Html {
  if (typeof nextCursor !== 'string') return html``;
  const href = `${path}?${new URLSearchParams({ ...params, cursor: nextCursor }).toString()}`;
  return html`<nav class="pager" aria-label="Pagination"><a href="${href}">Next page</a></nav>`;
}
