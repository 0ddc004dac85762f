import { iso4217MinorUnit } from '../../../lib/currencies.ts';
import { html, money, when } from '../../html.ts';
import { pager, table } from '../../layout.ts';
import { actionForm, badge, coded, field, intParam, oneOf, type Row, rows, str } from '../components.ts';
import { callOperation } from '../context.ts';
import type { PageHandler } from '../routes.ts';

const LIMIT = 20;
const STATUSES = ['draft', 'sent', 'paid', 'void', 'overdue'] as const;
const STATUS_WORDS: Record<string, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sent: 'Sent',
  paid: 'Paid',
  partially_paid: 'Partly paid',
  void: 'Cancelled (void)',
  overdue: 'Overdue',
  active: 'Active',
  paused: 'Paused',
  ended: 'Ended',
  cancelled: 'Cancelled',
  completed: 'Completed',
};

/** Invoices with a status filter, and the recurring schedules and payment plans. */
export const invoicesPage: PageHandler = async (services, signed, request) => {
  const offset = intParam(request.query.offset, 0);
  const status = oneOf(STATUSES, request.query.status);
  const invoices = rows(
    await callOperation(services, signed, 'invoices.list', {
      limit: LIMIT,
      offset,
      ...(status ? { status } : {}),
    }),
  );
  const schedules = rows(await callOperation(services, signed, 'invoices.schedules.list', { limit: 50 }));
  return {
    title: 'Invoices and schedules',
    current: 'invoices',
    body: html`<section class="card"><h2>Invoices</h2>
<form method="get" action="/dashboard/invoices"><label for="status">Status</label><select id="status" name="status"><option value="">Any</option>${STATUSES.map(
      (s) => html`<option value="${s}"${s === status ? html` selected` : ''}>${STATUS_WORDS[s]}</option>`,
    )}</select> <button class="secondary" type="submit">Filter</button></form>
${table(
  ['Number', 'Status', 'Issued', 'Due', 'Total', 'Balance'],
  invoices.map(
    (
      i,
    ) => html`<tr><td><a href="/dashboard/invoices/${str(i.id)}">${str(i.number) || 'draft'}</a></td><td>${badge(coded(str(i.status), STATUS_WORDS), i.overdue ? 'bad' : i.status === 'paid' ? 'ok' : '')}${i.overdue ? ' Overdue' : ''}</td>
<td>${str(i.issue_date)}</td><td>${str(i.due_date)}</td><td class="num">${money(i.total_minor, i.currency)}</td><td class="num">${money(i.balance_minor, i.currency)}</td></tr>`,
  ),
  status ? `No invoices in “${STATUS_WORDS[status]}”.` : 'No invoices yet.',
)}${pager('/dashboard/invoices', status ? { status } : {}, offset, LIMIT, invoices.length)}</section>
<section class="card"><h2>Recurring invoices and payment plans</h2>${table(
      ['Name', 'Kind', 'Status', 'Next run', ''],
      schedules.map((s) => scheduleRow(signed, s)),
      'No recurring invoice or payment plan.',
    )}</section>`,
  };
};

function scheduleRow(signed: Parameters<PageHandler>[1], s: Row) {
  const hidden = { id: str(s.id), expectedRevision: Number(s.revision) };
  const back = '/dashboard/invoices';
  const action =
    s.status === 'paused'
      ? actionForm(signed, 'invoices.schedules.resume', 'Resume', { back, hidden, style: 'secondary' })
      : s.status === 'active'
        ? actionForm(signed, 'invoices.schedules.pause', 'Pause', { back, hidden, style: 'secondary' })
        : '';
  return html`<tr><td>${str(s.name)}</td><td>${coded(str(s.kind))}</td><td>${coded(str(s.status), STATUS_WORDS)}</td><td>${str(s.next_run_date) || '—'}</td><td>${action}</td></tr>`;
}

/** One invoice: lines, payments, its PDF, send and record a payment. */
export const invoicePage: PageHandler = async (services, signed, request) => {
  const id = str(request.params.id);
  const i = (await callOperation(services, signed, 'invoices.get', { id })) as Row;
  const back = `/dashboard/invoices/${id}`;
  const hidden = { expectedRevision: Number(i.revision) };
  const today = services.clock.now().toISOString().slice(0, 10);
  return {
    title: `Invoice ${str(i.number) || '(draft)'}`,
    current: 'invoices',
    body: html`<section class="card"><dl class="facts"><dt>Status</dt><dd>${coded(str(i.status), STATUS_WORDS)}${i.overdue ? ' (overdue)' : ''}</dd>
<dt>Issued</dt><dd>${str(i.issue_date)}</dd><dt>Due</dt><dd>${str(i.due_date)}</dd><dt>Total</dt><dd>${money(i.total_minor, i.currency)}</dd>
<dt>Paid</dt><dd>${money(i.amount_paid_minor, i.currency)}</dd><dt>Balance</dt><dd>${money(i.balance_minor, i.currency)}</dd><dt>Sent</dt><dd>${when(i.sent_at, signed.viewer.timeZone)}</dd></dl>
<p><a href="${back}/pdf">Open the PDF</a></p>
${i.status === 'draft' || i.status === 'scheduled' ? actionForm(signed, 'invoices.send', 'Send now', { back, hidden: { id, ...hidden } }) : ''}</section>
<section class="card"><h2>Lines</h2>${table(
      ['Description', 'Quantity', 'Unit amount', 'Tax %'],
      rows(i, 'lines').map(
        (l) =>
          html`<tr><td>${str(l.description)}</td><td class="num">${str(l.quantity)}</td><td class="num">${money(l.unit_amount_minor ?? l.unitAmountMinor, i.currency)}</td><td class="num">${str(l.tax_rate ?? l.taxRate)}</td></tr>`,
      ),
      'No lines.',
    )}</section>
<section class="card"><h2>Payments</h2>${table(
      ['Paid on', 'Amount', 'Method', 'Reference'],
      rows(i, 'payments').map(
        (p) =>
          html`<tr><td>${str(p.paid_on)}</td><td class="num">${money(p.amount_minor, i.currency)}</td><td>${str(p.method)}</td><td>${str(p.reference)}</td></tr>`,
      ),
      'No payment recorded.',
    )}
${
  i.status === 'sent'
    ? html`<h3>Record a payment</h3>${actionForm(signed, 'invoices.payments.record', 'Record payment', {
        back,
        // The amount as people write it, in the invoice's currency (forms.ts `_amounts`).
        hidden: { invoiceId: id, ...hidden, _amounts: `amountMinor:${str(i.currency)}` },
        fields: html`${field('amountMinor', `Amount (${str(i.currency)})`, { required: true, value: money(i.balance_minor, undefined, iso4217MinorUnit(str(i.currency)) ?? 2), hint: 'As you write it, for example 1,234.56 or 1.234,56.' })}${field('paidOn', 'Paid on', { type: 'date', required: true, value: today })}${field('method', 'Method', { value: 'bank_transfer', hint: 'bank_transfer, card, cash, cheque or other.' })}${field('reference', 'Reference')}<p></p>`,
      })}`
    : ''
}</section>`,
  };
};
