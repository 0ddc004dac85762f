import { html, money } from '../../html.ts';
import { pager, table } from '../../layout.ts';
import { actionForm, intParam, rows, str } from '../components.ts';
import { callOperation } from '../context.ts';
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
<td>${str(t.status)}</td><td>${t.receipt_id ? 'attached' : 'missing'}</td></tr>`,
  ),
  Object.keys(filters).length
    ? 'No transaction matches these filters.'
    : 'No transactions yet. Import a statement through the API (transactions.imports.create).',
)}${pager('/dashboard/transactions', filters, offset, LIMIT, transactions.length)}</section>
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
