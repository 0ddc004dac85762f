import { type Html, html, money, when } from '../../html.ts';
import { pager, table } from '../../layout.ts';
import { actionForm, actionOrRole, coded, intParam, type Row, rows, str } from '../components.ts';
import { callOperation, type Signed } from '../context.ts';
import type { PageHandler } from '../routes.ts';

const LIMIT = 25;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const STATUSES = ['unreviewed', 'reviewed'] as const;
const SOURCES: Readonly<Record<string, string>> = {
  transaction: 'Bank or card',
  invoice: 'Invoice',
  invoice_payment: 'Invoice payment',
  invoice_void: 'Invoice voided',
  contractor_payout: 'Contractor payout',
  receipt: 'Receipt',
};

/**
 * The ledger: every entry with its categories, filtered by review status, dates and text, a page
 * at a time. "Mark reviewed" comes back to the same filters and page (decision 393), and an
 * export of a date range is one form away.
 */
export const ledgerPage: PageHandler = async (services, signed, request) => {
  const offset = intParam(request.query.offset, 0);
  const filters: Record<string, string> = {};
  const status = str(request.query.status);
  // Unreviewed by default: what a member opens the ledger for; "all" shows both.
  if (status !== 'all')
    filters.status = (STATUSES as readonly string[]).includes(status) ? status : 'unreviewed';
  for (const key of ['from', 'to'] as const)
    if (DATE.test(str(request.query[key]))) filters[key] = str(request.query[key]);
  const search = str(request.query.search).slice(0, 200);
  if (search) filters.search = search;
  const page = (await callOperation(services, signed, 'entries.list', {
    limit: LIMIT,
    offset,
    ...filters,
  })) as Row;
  const entries = rows(page);
  const query = { ...filters, ...(status === 'all' ? { status: 'all' } : {}) };
  const here = `/dashboard/entries?${new URLSearchParams({ ...query, ...(offset ? { offset: String(offset) } : {}) }).toString()}`;
  const shown = entries.length
    ? `Entries ${offset + 1} to ${offset + entries.length}${page.nextOffset === null ? ' (the last page)' : ''}`
    : '';
  return {
    title: 'Ledger',
    current: 'ledger',
    body: html`<section class="card"><form method="get" action="/dashboard/entries" role="search">
<div class="grid"><div><label for="status">Review</label><select id="status" name="status">${[
      ['unreviewed', 'To review'],
      ['reviewed', 'Reviewed'],
      ['all', 'All'],
    ].map(
      ([value, label]) =>
        html`<option value="${value}"${(status === 'all' ? 'all' : filters.status) === value ? html` selected` : ''}>${label}</option>`,
    )}</select></div>
<div><label for="from">From</label><input id="from" name="from" type="date" value="${filters.from ?? ''}"></div>
<div><label for="to">To</label><input id="to" name="to" type="date" value="${filters.to ?? ''}"></div>
<div><label for="search">Text</label><input id="search" name="search" type="text" maxlength="200" value="${search}"></div></div>
<p><button class="secondary" type="submit">Filter</button></p></form>
${shown ? html`<p class="muted" role="status">${shown}</p>` : ''}${table(
  ['Date', 'Description', 'Categories', 'Amount', 'From', 'Review'],
  entries.map((e) => entryRow(signed, e, here)),
  Object.keys(query).length > 1 || filters.status !== 'unreviewed'
    ? 'No entry matches these filters.'
    : 'Nothing to review.',
  'Ledger entries, newest first',
)}${pager('/dashboard/entries', query, offset, LIMIT, page.nextOffset === null ? 0 : LIMIT)}</section>
${exportSection(signed, filters)}`,
  };
};

function entryRow(signed: Signed, e: Row, here: string): Html {
  const categories = rows(e, 'allocations')
    .map((a) => str(a.category_code))
    .join(', ');
  const review =
    e.review_status === 'reviewed'
      ? coded('reviewed')
      : actionOrRole(signed, 'entries.update', 'mark an entry reviewed', () =>
          actionForm(signed, 'entries.update', 'Mark reviewed', {
            back: here,
            hidden: { id: str(e.id), expectedRevision: Number(e.revision), reviewStatus: 'reviewed' },
            style: 'secondary',
            inline: true,
          }),
        );
  return html`<tr><td>${str(e.date)}</td><td>${str(e.description)}${e.counterparty ? html`<br><span class="muted">${str(e.counterparty)}</span>` : ''}</td>
<td>${categories || '—'}</td><td class="num">${money(e.amount_minor, e.currency)}</td><td>${coded(str(e.source_type), SOURCES)}</td><td>${review}</td></tr>`;
}

function exportSection(signed: Signed, filters: Record<string, string>): Html {
  return html`<section class="card"><h2>Export</h2><p class="hint">A CSV of every entry dated in the range, one row per category line, amounts as decimals.</p>
${actionOrRole(signed, 'entries.export', 'export the ledger', () =>
  actionForm(signed, 'entries.export', 'Export as CSV', {
    back: '/dashboard/entries',
    fields: html`<div class="grid"><div><label for="f-export-from">From</label><input id="f-export-from" name="from" type="date" required value="${filters.from ?? ''}"></div>
<div><label for="f-export-to">To</label><input id="f-export-to" name="to" type="date" required value="${filters.to ?? ''}"></div></div>`,
  }),
)}</section>`;
}

/** One export: its state, reloading itself until it is done, then the file. */
export const exportPage: PageHandler = async (services, signed, request) => {
  const id = str(request.params.id);
  const job = (await callOperation(services, signed, 'entries.exports.get', { id })) as Row;
  const running = job.state === 'queued' || job.state === 'running';
  const error = job.error as { code?: string; message?: string } | null;
  return {
    title: `Export of ${str(job.from)} to ${str(job.to)}`,
    current: 'ledger',
    ...(running ? { refreshSeconds: 2 } : {}),
    body: html`<section class="card"><p role="status"><strong>${coded(str(job.state))}</strong>${running ? ' — this page refreshes itself.' : ''}</p>
${error ? html`<div class="error" role="alert"><p><strong>${str(error.message)}</strong></p><p class="hint">Error code <code>${str(error.code)}</code></p></div>` : ''}
<dl class="facts"><dt>Entries</dt><dd>${str(job.entries)}</dd><dt>Rows</dt><dd>${str(job.rows)}</dd><dt>Requested</dt><dd>${when(job.created_at, signed.viewer.timeZone)}</dd></dl>
${job.downloadable === true ? html`<p><a class="button" href="/dashboard/entries/exports/${id}/csv" download>Download ${str(job.file_name)}</a></p>` : ''}
<p><a href="/dashboard/entries">Back to the ledger</a></p></section>`,
  };
};
