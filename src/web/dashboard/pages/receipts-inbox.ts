import { INBOX_SORTS } from '../../../operations/inbox/schema.ts';
import { type Html, html, money, when } from '../../html.ts';
import { cursorPager, sortHeader, table } from '../../layout.ts';
import { actionForm, intParam, oneOf, type Row, rows, str } from '../components.ts';
import { callOperation } from '../context.ts';
import { type LiveState, liveRegion } from '../live-region.ts';
import type { PageHandler } from '../routes.ts';
import { READING, STATE_WORDS, STATES, stateBadge } from './receipt-states.ts';

/** What the file pickers offer (the service reads the type from the bytes whatever is chosen). */
const RECEIPT_TYPES = 'application/pdf,image/jpeg,image/png,image/webp,application/xml,text/xml,.xml';
const PATH = '/dashboard/receipts';
/** The orders inbox.list offers, as its schema lists them. */
const SORTS = INBOX_SORTS;
const SORT_LABELS: Record<(typeof SORTS)[number], string> = {
  received_desc: 'Newest received first',
  received_asc: 'Oldest received first',
  date_desc: 'Newest document date first',
  date_asc: 'Oldest document date first',
  amount_desc: 'Largest total first',
  amount_asc: 'Smallest total first',
};

/**
 * The receipts inbox with upload (drag and drop, progress), a state filter, a search (merchant,
 * file name, a total as printed) and an order; all three stay in the URL, the pages and the links.
 */
export const receiptsPage: PageHandler = async (services, signed, request) => {
  const state = STATES.includes(str(request.query.state)) ? str(request.query.state) : '';
  const cursor = typeof request.query.cursor === 'string' ? request.query.cursor : undefined;
  const search = str(request.query.search).trim().slice(0, 200);
  const requested = str(request.query.sort);
  const sort = oneOf(SORTS, requested) ?? 'received_desc';
  // What the list is looking at, besides its page: every link and form of the page keeps it.
  const view: Record<string, string> = {
    ...(state ? { state } : {}),
    ...(search ? { search } : {}),
    ...(sort !== 'received_desc' ? { sort } : {}),
  };
  const inbox = await callOperation(services, signed, 'inbox.list', {
    limit: 20,
    ...view,
    ...(cursor ? { cursor } : {}),
  });
  const uploaded = intParam(request.query.uploaded, 0, 1000);
  const duplicates = intParam(request.query.duplicates, 0, uploaded);
  const href = (params: Record<string, string>) =>
    Object.keys(params).length ? `${PATH}?${new URLSearchParams(params).toString()}` : PATH;
  const without = (key: string) => Object.fromEntries(Object.entries(view).filter(([k]) => k !== key));
  const notState = without('state');
  const notSort = without('sort');
  const ordered = (
    label: string,
    desc: (typeof SORTS)[number],
    asc: (typeof SORTS)[number],
    words: [string, string],
  ) => sortHeader(label, PATH, notSort, sort, { desc: [desc, words[0]], asc: [asc, words[1]] });
  const items = rows(inbox);
  // Receipts on this page still being read are followed live; the page is drawn again once read.
  const reading = items.filter((r) => READING.has(str(r.state)));
  const live = reading.length
    ? liveRegion(
        `/dashboard/live/inbox/${reading.map((r) => str(r.id)).join(',')}`,
        href(view),
        inboxLive(reading),
        'Receipts read',
      )
    : '';
  return {
    title: 'Receipts',
    current: 'receipts',
    ...(reading.length ? { refreshSeconds: 3 } : {}),
    body: html`${uploaded ? uploadedNotice(uploaded, duplicates) : ''}<section class="card"><h2>Upload receipts</h2>${actionForm(
      signed,
      'receipts.upload',
      'Upload',
      {
        back: href(view),
        hidden: { fileName: '', mediaType: '', contentBase64: '' },
        fields: html`<label for="f-receipt">Receipts or invoices</label><p class="hint" id="f-receipt-hint">PDF, JPEG, PNG, WebP or an e-invoice (UBL, CII), up to 10 MiB each. Drop them on this box or choose several at once.</p>
<input id="f-receipt" type="file" multiple accept="${RECEIPT_TYPES}" data-base64-into="contentBase64" aria-describedby="f-receipt-hint">
<label for="f-camera" class="camera">Or take a photo</label><input id="f-camera" type="file" accept="image/*" capture="environment" data-base64-into="contentBase64">
<p><progress data-upload-progress max="100" value="0" aria-label="Upload progress" hidden></progress> <span data-upload-status role="status"></span></p>
<noscript><p class="hint">Uploading needs JavaScript; or mail receipts to the inbox address.</p></noscript>`,
      },
    )}</section>
<section class="card"><h2>Inbox</h2><form method="get" action="${PATH}" role="search">${state ? html`<input type="hidden" name="state" value="${state}">` : ''}
<div class="grid"><div><label for="f-inbox-search">Search</label><p class="hint" id="f-inbox-search-hint">A merchant, a file name, or a total as printed (11,90).</p>
<input id="f-inbox-search" name="search" type="search" maxlength="200" value="${search}" aria-describedby="f-inbox-search-hint"></div>
<div><label for="f-inbox-sort">Order</label><select id="f-inbox-sort" name="sort">${SORTS.map(
      (s) => html`<option value="${s}"${s === sort ? html` selected` : ''}>${SORT_LABELS[s]}</option>`,
    )}</select></div></div>
<p><button class="secondary" type="submit">Search</button>${search ? html` <a href="${href(without('search'))}">Clear the search</a>` : ''}</p></form>
<nav aria-label="Receipts by state"><p>${['', ...STATES].map(
      (s) =>
        html`<a href="${href({ ...notState, ...(s ? { state: s } : {}) })}"${s === state ? html` aria-current="page"` : ''}>${s ? STATE_WORDS[s] : 'All'}</a> `,
    )}</p></nav>
${live}${items.length ? html`<p class="muted" role="status">${items.length === 1 ? '1 receipt' : `${items.length} receipts`} on this page${(inbox as Row).nextCursor ? '; more on the next' : ''}.</p>` : ''}${table(
  [
    ordered('Received', 'received_desc', 'received_asc', ['newest received first', 'oldest received first']),
    'Document',
    'Merchant',
    ordered('Date', 'date_desc', 'date_asc', ['newest date first', 'oldest date first']),
    ordered('Total', 'amount_desc', 'amount_asc', ['largest total first', 'smallest total first']),
    'State',
  ],
  items.map(
    (
      r,
    ) => html`<tr><td>${when(r.created_at, signed.viewer.timeZone)}</td><td><a href="/dashboard/receipts/${str(r.id)}">${str(r.file_name)}</a></td><td>${str(r.merchant) || '—'}</td>
<td>${str(r.date) || '—'}</td><td class="num">${money(r.total_minor, r.currency)}</td><td${READING.has(str(r.state)) ? html` data-live-field="state-${str(r.id)}"` : ''}>${stateBadge(str(r.state))}</td></tr>`,
  ),
  search
    ? `No receipt matches “${search}”${state ? ` in “${STATE_WORDS[state]}”` : ''}.`
    : state
      ? `No receipts in “${STATE_WORDS[state]}”.`
      : 'The inbox is empty. Upload a receipt above.',
  `Receipts, ${SORT_LABELS[sort].toLowerCase()}`,
)}${cursorPager(PATH, view, (inbox as Row).nextCursor)}</section>`,
  };
};

/**
 * Where the receipts of a list page that were being read stand (live.ts, kind `inbox`): how many
 * of them are read (a bar that can measure), each one's state in its row.
 */
export function inboxLive(receipts: readonly Row[]): LiveState {
  const reading = receipts.filter((r) => READING.has(str(r.state))).length;
  const total = receipts.length;
  const status =
    reading === 0
      ? `${total === 1 ? 'The receipt' : `All ${total} receipts`} on this page ${total === 1 ? 'is' : 'are'} read.`
      : `${reading} of ${total} receipts on this page ${reading === 1 ? 'is' : 'are'} still being read.`;
  return {
    done: reading === 0,
    status,
    progress: { value: total - reading, max: total },
    fields: Object.fromEntries(
      receipts.map((r) => [`state-${str(r.id)}`, STATE_WORDS[str(r.state)] ?? str(r.state)]),
    ),
  };
}

/** After several files: how many arrived and how many were already in the inbox (nothing added). */
function uploadedNotice(uploaded: number, duplicates: number): Html {
  const files = (n: number) => (n === 1 ? '1 file' : `${n} files`);
  const fresh = uploaded - duplicates;
  const already = duplicates
    ? ` ${files(duplicates)} ${duplicates === 1 ? 'was' : 'were'} already in the inbox, so nothing was added for ${duplicates === 1 ? 'it' : 'them'}.`
    : '';
  return html`<div class="notice" role="status">${files(fresh)} added to the inbox; ${fresh === 1 ? 'it is' : 'they are'} being read.${already}</div>`;
}
