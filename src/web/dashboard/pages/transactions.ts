import { type Html, html, money } from '../../html.ts';
import { pager, sortHeader, table } from '../../layout.ts';
import { actionForm, coded, intParam, type Row, rows, str } from '../components.ts';
import { callOperation, everyItem, type Signed } from '../context.ts';
import { type LiveState, liveRegion } from '../live-region.ts';
import type { PageHandler } from '../routes.ts';

const LIMIT = 25;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Bank and card transactions with date and text filters, and the ledger entries to review. */
export const transactionsPage: PageHandler = async (services, signed, request) => {
  const offset = intParam(request.query.offset, 0);
  const accounts = await everyItem(services, signed, 'accounts.list', {});
  const cards = await everyItem(services, signed, 'cards.list', {});
  const filters: Record<string, string> = {};
  for (const key of ['from', 'to'] as const)
    if (DATE.test(str(request.query[key]))) filters[key] = str(request.query[key]);
  // Only ids the member can pick are passed on (anything else would be a 400 for a typo in a URL).
  const account = str(request.query.accountId);
  if (accounts.some((a) => a.id === account)) filters.accountId = account;
  const card = str(request.query.cardId);
  if (cards.some((c) => c.id === card)) filters.cardId = card;
  const status = str(request.query.status);
  if ((STATUSES as readonly string[]).includes(status)) filters.status = status;
  const search = str(request.query.search).slice(0, 200);
  if (search) filters.search = search;
  // The order is kept in the URL like a filter, so paging and coming back keep it.
  const sort = str(request.query.sort);
  if ((SORTS as readonly string[]).includes(sort) && sort !== 'date_desc') filters.sort = sort;
  const page = (await callOperation(services, signed, 'transactions.list', {
    limit: LIMIT,
    offset,
    ...filters,
  })) as Row;
  const transactions = rows(page);
  const withoutSort = Object.fromEntries(Object.entries(filters).filter(([key]) => key !== 'sort'));
  const listUrl = Object.keys(filters).length ? `${PATH}?${new URLSearchParams(filters).toString()}` : PATH;
  const toReview = (await callOperation(services, signed, 'entries.list', {
    limit: LIMIT,
    status: 'unreviewed',
  })) as Row;
  const waiting = rows(toReview).length;
  const option = (value: string, label: string, selected: string | undefined) =>
    html`<option value="${value}"${selected === value ? html` selected` : ''}>${label}</option>`;
  return {
    title: 'Transactions and entries',
    current: 'transactions',
    body: html`<section class="card"><form method="get" action="/dashboard/transactions" role="search">
<div class="grid"><div><label for="from">From</label><input id="from" name="from" type="date" value="${filters.from ?? ''}"></div>
<div><label for="to">To</label><input id="to" name="to" type="date" value="${filters.to ?? ''}"></div>
<div><label for="accountId">Account</label><select id="accountId" name="accountId">${option('', 'Every account', filters.accountId ?? '')}${accounts.map((a) => option(str(a.id), str(a.name), filters.accountId))}</select></div>
<div><label for="cardId">Card</label><select id="cardId" name="cardId">${option('', 'Every card', filters.cardId ?? '')}${cards.map((c) => option(str(c.id), cardLabel(c, accounts), filters.cardId))}</select></div>
<div><label for="status">Status</label><select id="status" name="status">${option('', 'Any', filters.status ?? '')}${STATUSES.map((s) => option(s, STATUS_LABELS[s], filters.status))}</select></div>
<div><label for="search">Text</label><input id="search" name="search" type="text" maxlength="200" value="${search}"></div>
<div><label for="sort">Order</label><select id="sort" name="sort">${SORTS.map((s) => option(s, SORT_LABELS[s], filters.sort ?? 'date_desc'))}</select></div></div>
<p><button class="secondary" type="submit">Filter</button></p></form>
${transactions.length ? html`<p class="muted" role="status">Transactions ${offset + 1} to ${offset + transactions.length}${page.nextOffset === null ? ' (the last page)' : ''}</p>` : ''}${table(
  [
    sortHeader('Booked', PATH, withoutSort, filters.sort ?? 'date_desc', {
      desc: ['date_desc', 'newest first'],
      asc: ['date_asc', 'oldest first'],
    }),
    'Charge',
    'Account',
    sortHeader('Amount', PATH, withoutSort, filters.sort ?? 'date_desc', {
      desc: ['amount_desc', 'largest first'],
      asc: ['amount_asc', 'smallest first'],
    }),
    'Status',
    'Receipt',
  ],
  transactions.map((t) => transactionRow(t, accounts, cards)),
  Object.keys(filters).length
    ? 'No transaction matches these filters.'
    : 'No transactions yet. Import a statement below.',
  `Transactions, ${SORT_LABELS[(filters.sort ?? 'date_desc') as (typeof SORTS)[number]].toLowerCase()}`,
)}${pager('/dashboard/transactions', filters, offset, LIMIT, page.nextOffset === null ? 0 : LIMIT)}</section>
${importSection(signed, accounts, cards, listUrl)}
<section class="card"><h2>Entries to review</h2><p>${
      waiting === 0
        ? 'Nothing to review.'
        : `${toReview.nextOffset === null ? waiting : `More than ${waiting}`} ${waiting === 1 ? 'entry waits' : 'entries wait'} for review.`
    } <a href="/dashboard/entries">Open the ledger</a></p></section>`,
  };
};

const PATH = '/dashboard/transactions';
const SORTS = ['date_desc', 'date_asc', 'amount_desc', 'amount_asc'] as const;
const SORT_LABELS: Record<(typeof SORTS)[number], string> = {
  date_desc: 'Newest first',
  date_asc: 'Oldest first',
  amount_desc: 'Largest amount first (money in)',
  amount_asc: 'Smallest amount first (largest charge)',
};
const STATUSES = ['unmatched', 'matched', 'excluded'] as const;
const STATUS_LABELS: Record<(typeof STATUSES)[number], string> = {
  unmatched: 'Unmatched',
  matched: 'Matched',
  excluded: 'Excluded',
};

function cardLabel(c: Row, accounts: readonly Row[]): string {
  const account = str(accounts.find((a) => a.id === c.account_id)?.name);
  return `${str(c.label) || str(c.brand) || 'Card'} •••• ${str(c.last_four)}${account ? ` · ${account}` : ''}`;
}

/** A line as the bank wrote it, with who it was and which account and card made it. */
function transactionRow(t: Row, accounts: readonly Row[], cards: readonly Row[]): Html {
  const account = str(accounts.find((a) => a.id === t.account_id)?.name) || '—';
  const card = cards.find((c) => c.id === t.card_id);
  const merchant = str(t.merchant);
  const detail = [
    merchant && merchant !== str(t.description) ? str(t.description) : '',
    str(t.counterparty_name),
  ]
    .filter(Boolean)
    .join(' · ');
  // Money in (a refund, a customer's payment) asks for no receipt.
  const incoming = BigInt(str(t.amount_minor) || '0') > 0n;
  const receipt = t.receipt_id
    ? html`<a href="/dashboard/receipts/${str(t.receipt_id)}">attached</a>`
    : incoming
      ? html`<span class="muted">not needed</span>`
      : t.status === 'excluded'
        ? html`<span class="muted">—</span>`
        : 'missing';
  return html`<tr><td>${str(t.booked_date)}</td><td>${merchant || str(t.description)}${detail ? html`<br><span class="muted">${detail}</span>` : ''}</td>
<td>${account}${card ? html`<br><span class="muted">card •••• ${str(card.last_four)}</span>` : ''}</td><td class="num">${money(t.amount_minor, t.currency)}</td>
<td>${coded(str(t.status))}</td><td>${receipt}</td></tr>`;
}

/**
 * Statement upload: the script reads the file, sends it base64-encoded with the form's own fields
 * (CSRF token, idempotency key) and shows the upload's progress; the answer is the import's page.
 */
function importSection(signed: Signed, accounts: Row[], cards: Row[], back: string) {
  if (accounts.length === 0)
    return html`<section class="card"><h2>Import a statement</h2><p class="empty">Add a bank or card account first: <a href="/dashboard/accounts">Accounts and cards</a>.</p></section>`;
  return html`<section class="card"><h2>Import a statement</h2>
${actionForm(signed, 'transactions.imports.create', 'Upload and import', {
  back,
  hidden: { fileName: '', mediaType: '', contentBase64: '' },
  fields: html`<label for="f-account">Account</label><select id="f-account" name="accountId">${accounts.map(
    (a) => html`<option value="${str(a.id)}">${str(a.name)} (${str(a.currency)})</option>`,
  )}</select>
${
  cards.length
    ? html`<label for="f-card">Card</label><p class="hint" id="f-card-hint">For a card statement: the card that made the lines that name none, so they reach its holder's missing receipts. It must belong to the account above.</p>
<select id="f-card" name="cardId" aria-describedby="f-card-hint"><option value="">No card (a bank statement, or lines that name their card)</option>${cards.map(
        (c) => html`<option value="${str(c.id)}">${cardLabel(c, accounts)}</option>`,
      )}</select>`
    : ''
}
<label for="f-file">Statement file</label><p class="hint" id="f-file-hint">CSV, CAMT.053, MT940, OFX or QIF, up to 20 MiB. Drop it here or choose it.</p>
<input id="f-file" type="file" data-base64-into="contentBase64" aria-describedby="f-file-hint" required>
<p><progress data-upload-progress max="100" value="0" aria-label="Upload progress" hidden></progress> <span data-upload-status role="status"></span></p>
<noscript><p class="hint">Uploading needs JavaScript; without it, use the API (transactions.imports.create).</p></noscript>`,
})}</section>`;
}

/** Words for an import's state (transactions.imports.get). */
const IMPORT_STATES: Record<string, string> = {
  queued: 'Waiting to start',
  running: 'Reading the statement',
  succeeded: 'Finished',
  failed: 'Failed',
};
const COUNTS = ['read', 'added', 'duplicates', 'rejected', 'pending'] as const;

/**
 * Where an import stands for its page and its live poll (live.ts): the counts grow while it runs;
 * the number of lines in the file is known only at the end, so the bar is indeterminate until then.
 */
export function importLive(job: Row): LiveState {
  const counts = (job.counts ?? {}) as Record<string, unknown>;
  const done = job.state !== 'queued' && job.state !== 'running';
  const fields = Object.fromEntries(COUNTS.map((name) => [name, str(counts[name] ?? 0)]));
  const tally = `${fields.read} lines read: ${fields.added} added, ${fields.duplicates} duplicates, ${fields.rejected} rejected`;
  const error = job.error as { message?: string } | null;
  const status =
    job.state === 'queued'
      ? 'Waiting to start: the file is stored and is read shortly.'
      : job.state === 'running'
        ? `Reading the statement: ${tally} so far.`
        : job.state === 'failed'
          ? `Failed: ${str(error?.message)}`
          : `Finished: ${tally}.`;
  return {
    done,
    status,
    progress: done ? { value: 1, max: 1 } : null,
    fields: { ...fields, state: IMPORT_STATES[str(job.state)] ?? str(job.state) },
  };
}

/** One import job: its state and counts, followed live while it runs (live.ts). */
export const importPage: PageHandler = async (services, signed, request) => {
  const id = str(request.params.id);
  const job = (await callOperation(services, signed, 'transactions.imports.get', { id })) as Row;
  const live = importLive(job);
  const error = job.error as { code?: string; message?: string } | null;
  const count = (name: (typeof COUNTS)[number]) =>
    html`<dd data-live-field="${name}">${live.fields[name] ?? ''}</dd>`;
  return {
    title: `Import of ${str(job.file_name)}`,
    current: 'transactions',
    ...(live.done ? {} : { refreshSeconds: 2 }),
    body: html`<section class="card">${
      live.done
        ? html`<p role="status"><strong>${live.status}</strong></p>`
        : liveRegion(
            `/dashboard/live/imports/${id}`,
            `/dashboard/transactions/imports/${id}`,
            live,
            'Import progress',
          )
    }
${error ? html`<div class="error" role="alert"><p><strong>${str(error.message)}</strong></p><p class="hint">Error code <code>${str(error.code)}</code></p></div>` : ''}
<dl class="facts"><dt>State</dt><dd data-live-field="state">${live.fields.state ?? ''}</dd><dt>Lines read</dt>${count('read')}<dt>Added</dt>${count('added')}<dt>Duplicates</dt>${count('duplicates')}
<dt>Rejected</dt>${count('rejected')}<dt>Not booked yet</dt>${count('pending')}</dl>
<p><a href="/dashboard/transactions">Back to transactions</a></p></section>
<section class="card"><h2>Rejected lines</h2>${table(
      ['Line', 'Reason'],
      rows(job, 'rejected').map(
        (r) => html`<tr><td class="num">${str(r.line)}</td><td>${str(r.reason)}</td></tr>`,
      ),
      'No line was rejected.',
    )}</section>`,
  };
};
