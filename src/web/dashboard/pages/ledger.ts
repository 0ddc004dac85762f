import { newId } from '../../../lib/ids.ts';
import { type Html, html, money, when } from '../../html.ts';
import { pager, table } from '../../layout.ts';
import { BULK_PATH } from '../bulk-entries.ts';
import { actionForm, actionOrRole, coded, intParam, type Row, rows, str } from '../components.ts';
import { callOperation, everyItem, type Signed } from '../context.ts';
import { type LiveState, liveRegion } from '../live-region.ts';
import type { PageHandler } from '../routes.ts';
import { bulkOutcome } from './ledger-bulk.ts';

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
 * at a time. "Mark reviewed" comes back to the same filters and page (decision 393); each entry
 * is categorised from a picker of the chart; ticked entries are marked reviewed and/or
 * categorised in one go (decision 441); a category is added from a small form, and an export of
 * a date range is one form away.
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
  const categories = await everyItem(services, signed, 'categories.list', {});
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
${bulkOutcome(request.query, entries, categories)}
${shown ? html`<p class="muted" role="status">${shown}</p>` : ''}${entries.length ? bulkForm(signed, here, categories) : ''}${table(
  ['Tick', 'Date', 'Description', 'Category', 'Amount', 'From', 'Review'],
  entries.map((e) => entryRow(signed, e, here, categories)),
  Object.keys(query).length > 1 || filters.status !== 'unreviewed'
    ? 'No entry matches these filters.'
    : 'Nothing to review.',
  'Ledger entries, newest first',
)}${pager('/dashboard/entries', query, offset, LIMIT, page.nextOffset === null ? 0 : LIMIT)}</section>
${categorySection(signed, here)}
${exportSection(signed, filters)}`,
  };
};

function entryRow(signed: Signed, e: Row, here: string, categories: readonly Row[]): Html {
  const lines = rows(e, 'allocations');
  const label = `${str(e.date)} ${str(e.description)}`;
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
  // A split entry keeps its lines: one picker would replace them all with one.
  const category =
    lines.length > 1
      ? html`${lines.map((a) => str(a.category_code)).join(', ')}<br><span class="muted">split</span>`
      : actionOrRole(signed, 'entries.update', 'categorise an entry', () =>
          bulkShell(
            signed,
            here,
            html`<input type="hidden" name="entry" value="${str(e.id)}:${str(e.revision)}"><input type="hidden" name="do" value="categorise">
<select name="categoryId" aria-label="Category of ${label}">${categoryOptions(categories, str(lines[0]?.category_id))}</select> <button type="submit" class="secondary">Save</button>`,
            'picker',
          ),
        );
  return html`<tr><td><input type="checkbox" name="entry" value="${str(e.id)}:${str(e.revision)}" form="bulk" aria-label="Tick ${label}"></td><td>${str(e.date)}</td><td>${str(e.description)}${e.counterparty ? html`<br><span class="muted">${str(e.counterparty)}</span>` : ''}</td>
<td>${category}</td><td class="num">${money(e.amount_minor, e.currency)}</td><td>${coded(str(e.source_type), SOURCES)}</td><td>${review}</td></tr>`;
}

function categoryOptions(categories: readonly Row[], selected = ''): Html[] {
  return categories.map(
    (c) =>
      html`<option value="${str(c.id)}"${c.id === selected ? html` selected` : ''}>${str(c.code)} ${str(c.name)}</option>`,
  );
}

/** A form to the bulk route with the session's CSRF token, where to come back, and a fresh key. */
function bulkShell(signed: Signed, here: string, fields: Html, kind: 'picker' | 'bulk'): Html {
  return html`<form method="post" action="${BULK_PATH}"${kind === 'bulk' ? html` id="bulk"` : html` class="inline"`}><input type="hidden" name="_csrf" value="${signed.viewer.csrf}"><input type="hidden" name="_back" value="${here}"><input type="hidden" name="idempotencyKey" value="dash-${newId()}">${fields}</form>`;
}

/** The bulk form; the rows' checkboxes belong to it (`form="bulk"`), so the table stays outside. */
function bulkForm(signed: Signed, here: string, categories: readonly Row[]): Html {
  return actionOrRole(signed, 'entries.update', 'change entries', () =>
    bulkShell(
      signed,
      here,
      html`<fieldset><legend>With the ticked entries</legend><p class="hint">Tick entries in the list below, then choose what to do with them; each is changed on its own and the page says which could not be.</p>
<label class="choice" hidden><input type="checkbox" data-tick-all="bulk"> Tick every entry on this page</label>
<label for="bulk-category">Category</label><select id="bulk-category" name="categoryId"><option value="">Choose a category (to categorise)</option>${categoryOptions(categories)}</select>
<p><button type="submit" name="do" value="categorise" class="secondary">Categorise ticked entries</button> <button type="submit" name="do" value="both" class="secondary">Categorise and mark reviewed</button> <button type="submit" name="do" value="review" class="secondary">Mark ticked entries reviewed</button></p></fieldset>`,
      'bulk',
    ),
  );
}

/**
 * Add a category to the chart (`categories.save` without an id); the ledger comes back in place,
 * or, refused (a code already taken), with the typed values and the message beside the field
 * (as every refused form: refused.ts).
 */
function categorySection(signed: Signed, here: string): Html {
  const chosenKind = 'expense';
  return html`<section class="card" id="add-category"><h2>Add a category</h2><p class="hint">Categories are never deleted, so entries keep theirs; a new one is offered in every picker above.</p>
${actionOrRole(signed, 'categories.save', 'add a category', () =>
  actionForm(signed, 'categories.save', 'Add category', {
    back: here,
    fields: html`<div class="grid"><div><label for="f-cat-code">Code</label><p class="hint" id="f-cat-code-hint">Up to 20 letters, digits, dot, dash or underscore, e.g. 6450.</p><input id="f-cat-code" name="code" type="text" required maxlength="20" pattern="[A-Za-z0-9._\\-]{1,20}" aria-describedby="f-cat-code-hint"></div>
<div><label for="f-cat-name">Name</label><input id="f-cat-name" name="name" type="text" required maxlength="100"></div>
<div><label for="f-cat-kind">Kind</label><select id="f-cat-kind" name="kind">${[
      ['expense', 'Expense'],
      ['income', 'Income'],
      ['asset', 'Asset'],
      ['liability', 'Liability'],
      ['equity', 'Equity'],
    ].map(
      ([value, text]) =>
        html`<option value="${value ?? ''}"${value === chosenKind ? html` selected` : ''}>${text ?? ''}</option>`,
    )}</select></div>
<div><label for="f-cat-rate">Default tax rate (%)</label><p class="hint" id="f-cat-rate-hint">Optional, e.g. 19 or 8.875; used when an entry is categorised without a rate of its own.</p><input id="f-cat-rate" name="defaultTaxRate" type="text" inputmode="decimal" maxlength="8" pattern="(100|[0-9]{1,2})([.][0-9]{1,4})?" aria-describedby="f-cat-rate-hint"></div></div>`,
  }),
)}</section>`;
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

/** Where an export stands, for its page and its live poll (live.ts); the rows are counted at the end. */
export function exportLive(job: Row): LiveState {
  const done = job.state !== 'queued' && job.state !== 'running';
  const error = job.error as { message?: string } | null;
  const status =
    job.state === 'queued'
      ? 'Waiting to start.'
      : job.state === 'running'
        ? 'Writing the CSV.'
        : job.state === 'failed'
          ? `Failed: ${str(error?.message)}`
          : `Finished: ${str(job.entries)} entries in ${str(job.rows)} rows.`;
  return {
    done,
    status,
    progress: done ? { value: 1, max: 1 } : null,
    fields: { entries: str(job.entries), rows: str(job.rows) },
  };
}

/** One export job: its state and counts, followed live while it runs, then Download. */
export const exportPage: PageHandler = async (services, signed, request) => {
  const id = str(request.params.id);
  const job = (await callOperation(services, signed, 'entries.exports.get', { id })) as Row;
  const live = exportLive(job);
  const error = job.error as { code?: string; message?: string } | null;
  return {
    title: `Export of ${str(job.from)} to ${str(job.to)}`,
    current: 'ledger',
    ...(live.done ? {} : { refreshSeconds: 2 }),
    body: html`<section class="card">${
      live.done
        ? html`<p role="status"><strong>${coded(str(job.state))}</strong></p>`
        : liveRegion(
            `/dashboard/live/exports/${id}`,
            `/dashboard/entries/exports/${id}`,
            live,
            'Export progress',
          )
    }
${error ? html`<div class="error" role="alert"><p><strong>${str(error.message)}</strong></p><p class="hint">Error code <code>${str(error.code)}</code></p></div>` : ''}
<dl class="facts"><dt>Entries</dt><dd data-live-field="entries">${str(job.entries)}</dd><dt>Rows</dt><dd data-live-field="rows">${str(job.rows)}</dd><dt>Requested</dt><dd>${when(job.created_at, signed.viewer.timeZone)}</dd></dl>
${job.downloadable === true ? html`<p><a class="button" href="/dashboard/entries/exports/${id}/csv" download>Download ${str(job.file_name)}</a></p>` : ''}
<p><a href="/dashboard/entries">Back to the ledger</a></p></section>`,
  };
};
