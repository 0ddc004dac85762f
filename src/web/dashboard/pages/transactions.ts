import { html, money } from '../../html.ts';
import { pager, table } from '../../layout.ts';
import { actionForm, coded, intParam, type Row, rows, str } from '../components.ts';
import { callOperation, type Signed } from '../context.ts';
import type { PageHandler } from '../routes.ts';

const LIMIT = 25;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Bank and card transactions with date and text filters, and the ledger entries to review. */
export const transactionsPage: PageHandler = async (services, signed, request) => {
  const offset = intParam(request.query.offset, 0);
  const filters: Record<string, string> = {};
  for (const key of ['from', 'to'] as const)
    if (DATE.test(str(request.query[key]))) filters[key] = str(request.query[key]);
  const search = str(request.query.search).slice(0, 200);
  if (search) filters.search = search;
  const transactions = rows(
    await callOperation(services, signed, 'transactions.list', { limit: LIMIT, offset, ...filters }),
  );
  const accounts = rows(await callOperation(services, signed, 'accounts.list', { limit: 100 }));
  const entries = rows(
    await callOperation(services, signed, 'entries.list', { limit: 10, status: 'unreviewed' }),
  );
  return {
    title: 'Transactions and entries',
    current: 'transactions',
    body: html`<section class="card"><form method="get" action="/dashboard/transactions" role="search">
<div class="grid"><div><label for="from">From</label><input id="from" name="from" type="date" value="${filters.from ?? ''}"></div>
<div><label for="to">To</label><input id="to" name="to" type="date" value="${filters.to ?? ''}"></div>
<div><label for="search">Text</label><input id="search" name="search" type="text" value="${search}"></div></div>
<p><button class="secondary" type="submit">Filter</button></p></form>
${table(
  ['Booked', 'Description', 'Amount', 'Status', 'Receipt'],
  transactions.map(
    (
      t,
    ) => html`<tr><td>${str(t.booked_date)}</td><td>${str(t.merchant ?? t.description) || str(t.description)}</td><td class="num">${money(t.amount_minor, t.currency)}</td>
<td>${coded(str(t.status))}</td><td>${t.receipt_id ? 'attached' : 'missing'}</td></tr>`,
  ),
  Object.keys(filters).length
    ? 'No transaction matches these filters.'
    : 'No transactions yet. Import a statement below.',
)}${pager('/dashboard/transactions', filters, offset, LIMIT, transactions.length)}</section>
${importSection(signed, accounts)}
<section class="card"><h2>Entries to review</h2>${table(
      ['Date', 'Description', 'Amount', ''],
      entries.map(
        (e) =>
          html`<tr><td>${str(e.date)}</td><td>${str(e.description)}</td><td class="num">${money(e.amount_minor, e.currency)}</td><td>${actionForm(
            signed,
            'entries.update',
            'Mark reviewed',
            {
              back: '/dashboard/transactions',
              hidden: { id: str(e.id), expectedRevision: Number(e.revision), reviewStatus: 'reviewed' },
              style: 'secondary',
            },
          )}</td></tr>`,
      ),
      'Nothing to review.',
    )}</section>`,
  };
};

/**
 * Statement upload: the script reads the file, sends it base64-encoded with the form's own fields
 * (CSRF token, idempotency key) and shows the upload's progress; the answer is the import's page.
 */
function importSection(signed: Signed, accounts: Row[]) {
  if (accounts.length === 0)
    return html`<section class="card"><h2>Import a statement</h2><p class="empty">Add a bank or card account first: <a href="/dashboard/accounts">Accounts and cards</a>.</p></section>`;
  return html`<section class="card"><h2>Import a statement</h2>
${actionForm(signed, 'transactions.imports.create', 'Upload and import', {
  back: '/dashboard/transactions',
  hidden: { fileName: '', mediaType: '', contentBase64: '' },
  fields: html`<label for="f-account">Account</label><select id="f-account" name="accountId">${accounts.map(
    (a) => html`<option value="${str(a.id)}">${str(a.name)} (${str(a.currency)})</option>`,
  )}</select>
<label for="f-file">Statement file</label><p class="hint" id="f-file-hint">CSV, CAMT.053, MT940, OFX or QIF, up to 20 MiB. Drop it here or choose it.</p>
<input id="f-file" type="file" data-base64-into="contentBase64" aria-describedby="f-file-hint" required>
<p><progress data-upload-progress max="100" value="0" hidden></progress> <span data-upload-status role="status"></span></p>
<noscript><p class="hint">Uploading needs JavaScript; without it, use the API (transactions.imports.create).</p></noscript>`,
})}</section>`;
}

/** One import job: its state and counts, reloading itself until it is done. */
export const importPage: PageHandler = async (services, signed, request) => {
  const job = (await callOperation(services, signed, 'transactions.imports.get', {
    id: str(request.params.id),
  })) as Row;
  const counts = (job.counts ?? {}) as Record<string, unknown>;
  const running = job.state === 'queued' || job.state === 'running';
  const error = job.error as { code?: string; message?: string } | null;
  return {
    title: `Import of ${str(job.file_name)}`,
    current: 'transactions',
    ...(running ? { refreshSeconds: 2 } : {}),
    body: html`<section class="card"><p role="status"><strong>${str(job.state)}</strong>${running ? ' — this page refreshes itself.' : ''}</p>
${error ? html`<div class="error" role="alert"><p><strong>${str(error.message)}</strong></p><p class="hint">Error code <code>${str(error.code)}</code></p></div>` : ''}
<dl class="facts"><dt>Lines read</dt><dd>${str(counts.read)}</dd><dt>Added</dt><dd>${str(counts.added)}</dd><dt>Duplicates</dt><dd>${str(counts.duplicates)}</dd>
<dt>Rejected</dt><dd>${str(counts.rejected)}</dd><dt>Not booked yet</dt><dd>${str(counts.pending)}</dd></dl>
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
