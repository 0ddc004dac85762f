import { findOperation } from '../../../operations/catalog.ts';
import { readerStatus } from '../../../receipts/extraction/readers.ts';
import { type Html, html, money, when } from '../../html.ts';
import { table } from '../../layout.ts';
import { coded, type Row, rows, str } from '../components.ts';
import { callOperation, callOperationNamed, everyItem } from '../context.ts';
import type { PageHandler } from '../routes.ts';
import { DISABLED_REASONS } from './webhooks.ts';

/** What needs attention now; each part shows only what the member's role may see. */
export const homePage: PageHandler = async (services, signed) => {
  const parts: Html[] = [];
  const readers = await readerStatus();
  if (readers.missing.length) {
    parts.push(
      html`<section class="card" role="status"><h2>Some receipts cannot be read on this server yet</h2><p>Missing: ${readers.missing.join(', ')}. Receipts that need ${readers.missing.length === 1 ? 'it' : 'them'} wait in the inbox and are read by themselves once installed; nothing has to be uploaded again.</p>${signed.principal.role === 'admin' ? html`<p>An operator installs ${readers.missing.length === 1 ? 'it' : 'them'} with <code>node scripts/system-packages.mjs --service</code> as root (or restarts <code>./bin/accounting serve</code> as root).</p>` : ''}</section>`,
    );
  }
  const steps = await gettingStarted(services, signed);
  if (steps.length > 0) {
    parts.push(
      html`<section class="card"><h2>Getting started</h2><p>A few steps set up the books; each leaves this list once it is done.</p><ol>${steps.map(
        (step) =>
          html`<li><a href="${step.href}">${step.label}</a> ${html`<span class="hint">${step.why}</span>`}</li>`,
      )}</ol></section>`,
    );
  }
  const attention = (await callOperation(services, signed, 'attention.mine', { limit: 10 })) as Row;
  parts.push(
    html`<section class="card"><h2>My card transactions missing receipts (${str(attention.total ?? 0)})</h2>${table(
      ['Date', 'Merchant', 'Card', 'Amount'],
      rows(attention).map(
        (t) =>
          html`<tr><td>${str(t.date)}</td><td>${str(t.merchant)}</td><td>•••• ${str(t.lastFour)}</td><td class="num">${money(t.amountMinor, t.currency)}</td></tr>`,
      ),
      'Nothing missing: every card transaction of yours has its receipt.',
    )}</section>`,
  );

  if (findOperation('inbox.list')) {
    const inbox = await callOperation(services, signed, 'inbox.list', { limit: 10, state: 'needs_review' });
    parts.push(
      html`<section class="card"><h2>Inbox to review</h2>${table(
        ['Received', 'Item'],
        rows(inbox).map(
          (i) =>
            html`<tr><td>${when(i.created_at, signed.viewer.timeZone)}</td><td><a href="/dashboard/receipts/${str(i.id)}">${str(i.merchant) || str(i.file_name)}</a></td></tr>`,
        ),
        'Nothing in the inbox needs a review.',
      )}</section>`,
    );
  }

  parts.push(await hoursToApprove(services, signed));

  if (signed.principal.role === 'admin') {
    const endpoints = await everyItem(services, signed, 'webhooks.endpoints.list', {});
    const troubled = endpoints.filter((e) => e.active !== true || Number(e.failure_count) > 0);
    parts.push(
      html`<section class="card"><h2>Failing or turned-off webhook endpoints</h2>${table(
        ['Endpoint', 'State'],
        troubled.map(
          (e) =>
            html`<tr><td><a href="/dashboard/webhooks/${str(e.id)}">${str(e.url)}</a></td><td>${e.active === true ? `${str(e.failure_count)} failed ${Number(e.failure_count) === 1 ? 'attempt' : 'attempts'} in a row` : html`Turned off because ${coded(str(e.disabled_reason), DISABLED_REASONS)}`}</td></tr>`,
        ),
        'Every endpoint is delivering.',
      )}</section>`,
    );
  }

  const overdue = rows(
    await callOperation(services, signed, 'invoices.list', { status: 'overdue', limit: 10 }),
  );
  parts.push(
    html`<section class="card"><h2>Overdue invoices</h2>${table(
      ['Number', 'Due', 'Balance'],
      overdue.map(
        (i) =>
          html`<tr><td><a href="/dashboard/invoices/${str(i.id)}">${str(i.number)}</a></td><td>${str(i.due_date)}</td><td class="num">${money(i.balance_minor, i.currency)}</td></tr>`,
      ),
      'No invoice is overdue.',
    )}</section>`,
  );
  return { title: 'What needs attention', current: 'home', body: html`<div class="grid">${parts}</div>` };
};

interface Step {
  label: string;
  href: string;
  why: string;
}

/**
 * The set-up steps a new organization has not done yet, each decided by one short catalog read
 * (a step whose operation the member's role may not call is left out).
 */
async function gettingStarted(services: Parameters<PageHandler>[0], signed: Parameters<PageHandler>[1]) {
  const any = async (operation: string): Promise<boolean | undefined> => {
    if (!findOperation(operation)) return undefined;
    try {
      return rows(await callOperationNamed(services, signed, operation, { limit: 1 })).length > 0;
    } catch {
      return undefined;
    }
  };
  const candidates: Array<[Promise<boolean | undefined>, Step]> = [
    [
      any('accounts.list'),
      {
        label: 'Add a bank or card account',
        href: '/dashboard/accounts',
        why: 'where statements and card charges are booked',
      },
    ],
    [
      any('transactions.list'),
      {
        label: 'Import a bank statement',
        href: '/dashboard/transactions',
        why: 'CSV, CAMT.053, MT940, OFX or QIF',
      },
    ],
    [
      any('cards.list'),
      {
        label: 'Add a card and its holder',
        href: '/dashboard/accounts',
        why: 'its charges then ask the holder for receipts',
      },
    ],
    [
      any('inbox.list'),
      {
        label: 'Upload a receipt',
        href: '/dashboard/receipts',
        why: 'a photo, a PDF or an e-invoice; it is read and matched',
      },
    ],
    [
      any('contractors.list'),
      {
        label: 'Invite a contractor',
        href: '/dashboard/contractors',
        why: 'agreements, hours and payouts in one place',
      },
    ],
    ...(signed.principal.role === 'admin'
      ? ([
          [
            any('webhooks.endpoints.list'),
            {
              label: 'Add a webhook endpoint',
              href: '/dashboard/webhooks',
              why: 'signed events for your own systems',
            },
          ],
        ] as Array<[Promise<boolean | undefined>, Step]>)
      : []),
  ];
  const done = await Promise.all(candidates.map(([check]) => check));
  return candidates.filter((_, i) => done[i] === false).map(([, step]) => step);
}

/** Contractors' hours waiting for a decision, each linked to its contractor's page (issue 30). */
async function hoursToApprove(services: Parameters<PageHandler>[0], signed: Parameters<PageHandler>[1]) {
  const pending = rows(
    await callOperation(services, signed, 'contractors.hours.list', { status: 'submitted', limit: 10 }),
  );
  const names = new Map<string, string>();
  for (const id of new Set(pending.map((h) => str(h.contractor_id)))) {
    const c = (await callOperation(services, signed, 'contractors.get', { id })) as Row;
    names.set(id, str(c.display_name));
  }
  return html`<section class="card"><h2>Contractor hours to approve</h2>${table(
    ['Contractor', 'Day', 'Hours', 'What was done'],
    pending.map(
      (h) =>
        html`<tr><td><a href="/dashboard/contractors/${str(h.contractor_id)}#hours">${names.get(str(h.contractor_id)) ?? ''}</a></td><td>${str(h.work_date)}</td><td class="num">${str(h.hours)}</td><td>${str(h.description)}</td></tr>`,
    ),
    'No contractor hours wait for approval.',
  )}</section>`;
}
