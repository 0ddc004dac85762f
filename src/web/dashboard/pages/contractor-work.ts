import { type Html, html, money } from '../../html.ts';
import { pager, table } from '../../layout.ts';
import { actionForm, actionOrRole, coded, field, intParam, type Row, rows, str } from '../components.ts';
import { callOperation } from '../context.ts';
import { type ContractorView, HOURS_WORDS, otherOffsets, PAYOUT_WORDS, today } from './contractor-area.ts';

const LIMIT = 20;
/** The pay period a role's cadence gives (contractors.payouts.create), in words. */
const PERIODS: Readonly<Record<string, string>> = {
  weekly: 'weekly: the period is the 7 days ending on this day',
  biweekly: 'every two weeks: the period is the 14 days ending on this day',
  semimonthly: 'twice a month: the period runs from the 1st or the 16th to this day',
  monthly: 'monthly: the period runs from the 1st of the month to this day',
};

/** Hours waiting for a decision (Approve, or Reject with a reason), then every entry, paged. */
export async function hoursSection(view: ContractorView): Promise<Html> {
  const { services, signed, contractor, back } = view;
  const contractorId = str(contractor.id);
  const offset = intParam(view.query.hoursOffset, 0);
  const pending = rows(
    await callOperation(services, signed, 'contractors.hours.list', {
      contractorId,
      status: 'submitted',
      limit: 50,
    }),
  );
  const all = rows(
    await callOperation(services, signed, 'contractors.hours.list', { contractorId, limit: LIMIT, offset }),
  );
  const decide = (h: Row) =>
    actionOrRole(signed, 'contractors.hours.approve', 'approve hours', () => {
      const hidden = { id: str(h.id), expectedRevision: Number(h.revision) };
      return html`${actionForm(signed, 'contractors.hours.approve', 'Approve', { back, hidden })}${actionForm(
        signed,
        'contractors.hours.reject',
        'Reject',
        {
          back,
          hidden,
          style: 'danger',
          fields: field('reason', 'Reason for rejecting (the contractor sees it)', {
            id: `reject-${str(h.id)}`,
            required: true,
          }),
        },
      )}`;
    });
  return html`<section class="card" id="hours"><h2>Hours</h2>
<h3>Waiting for approval</h3>${
    pending.length === 0
      ? html`<p class="empty">No hours wait for approval.</p>`
      : html`<ul class="items" aria-label="Hours waiting for approval">${pending.map(
          (h) =>
            html`<li><p><strong>${str(h.work_date)}</strong> · ${str(h.hours)} h · ${money(h.amount_minor, h.currency)}<br>${str(h.description)}</p><div class="actions">${decide(h)}</div></li>`,
        )}</ul>`
  }
${recordHours(view)}
<h3>All hours</h3>${table(
    ['Day', 'Hours', 'What was done', 'Amount', 'State'],
    all.map(
      (h) =>
        html`<tr><td>${str(h.work_date)}</td><td class="num">${str(h.hours)}</td><td>${str(h.description)}</td><td class="num">${money(h.amount_minor, h.currency)}</td><td>${coded(str(h.status), HOURS_WORDS)}${h.rejection_reason ? html`: ${str(h.rejection_reason)}` : ''}</td></tr>`,
    ),
    'No hours submitted yet. The contractor submits them in the portal.',
    'All hours',
  )}${pager(back, otherOffsets(view.query, 'hoursOffset'), offset, LIMIT, all.length, { key: 'hoursOffset', label: 'Pages of hours' })}</section>`;
}

/**
 * Hours a member records for the contractor (who may have no portal access): they wait for
 * approval like hours from the portal. A number input, so the browser takes the member's own
 * decimal separator ("6,25" in German) and sends the operation's form ("6.25").
 */
function recordHours(view: ContractorView): Html {
  const { services, signed, contractor, role, back } = view;
  const name = str(contractor.display_name);
  const body = role
    ? actionOrRole(signed, 'contractors.hours.submit', 'record hours', () =>
        actionForm(signed, 'contractors.hours.submit', 'Record hours', {
          back,
          hidden: { contractorId: str(contractor.id) },
          fields: html`<div class="actions"><div>${field('workDate', 'Day worked', { id: 'hours-day', type: 'date', required: true, value: today(services.clock.now(), signed.viewer.timeZone) })}</div><div><label for="hours-hours">Hours</label><p class="hint" id="hours-hours-hint">Up to 24, to the hundredth (7.25 is seven and a quarter).</p><input id="hours-hours" name="hours" type="number" min="0.01" max="24" step="0.01" inputmode="decimal" required aria-describedby="hours-hours-hint"></div></div>
${field('description', 'What was done', { id: 'hours-description', required: true })}<p></p>`,
        }),
      )
    : html`<p class="hint">Assign a job role first: hours are paid at its rate.</p>`;
  return html`<details class="edit"><summary>Record hours for ${name}</summary>${body}</details>`;
}

/** Payouts, what approved hours are not paid yet, create a payout for a period, mark one paid. */
export async function payoutsSection(view: ContractorView): Promise<Html> {
  const { services, signed, contractor, role, back } = view;
  const contractorId = str(contractor.id);
  const offset = intParam(view.query.payoutsOffset, 0);
  const payouts = rows(
    await callOperation(services, signed, 'contractors.payouts.list', { contractorId, limit: LIMIT, offset }),
  );
  const approved = rows(
    await callOperation(services, signed, 'contractors.hours.list', {
      contractorId,
      status: 'approved',
      limit: 100,
    }),
  ).filter((h) => !h.payout_id);
  const unpaid = payouts.filter((p) => p.status === 'unpaid');
  const owed = approved.reduce((sum, h) => sum + BigInt(str(h.amount_minor) || '0'), 0n);
  const day = today(services.clock.now(), signed.viewer.timeZone);
  const create = role
    ? actionOrRole(signed, 'contractors.payouts.create', 'create a payout', () =>
        actionForm(signed, 'contractors.payouts.create', 'Create payout', {
          back,
          hidden: { contractorId },
          fields: field('periodEnd', 'Last day of the pay period', {
            id: 'payout-period-end',
            type: 'date',
            required: true,
            value: day,
            hint: `${str(role.name)} is paid ${PERIODS[str(role.pay_cadence)] ?? 'by its cadence'}. Every approved entry of the period not yet paid is included.`,
          }),
        }),
      )
    : html`<p class="hint">Assign a job role first: a payout is paid at the role's rate and cadence.</p>`;
  return html`<section class="card"><h2>Payouts</h2>
<p>${approved.length === 0 ? 'No approved hours wait for a payout.' : html`Approved hours not in a payout yet: <strong>${approved.length}</strong> ${approved.length === 1 ? 'entry' : 'entries'}, <strong>${money(owed.toString(), approved[0]?.currency)}</strong>.`}</p>
${create}
<h3>All payouts</h3>${table(
    ['Period', 'Amount', 'State', 'Paid on', 'Reference'],
    payouts.map((p) => payoutRow(p)),
    'No payout yet.',
    'Payouts',
  )}${unpaid.length ? html`<h3>To mark paid</h3><ul class="items" aria-label="Payouts to mark paid">${unpaid.map((p) => markPaid(view, p, day))}</ul>` : ''}${pager(back, otherOffsets(view.query, 'payoutsOffset'), offset, LIMIT, payouts.length, { key: 'payoutsOffset', label: 'Pages of payouts' })}</section>`;
}

function payoutRow(p: Row): Html {
  const lines = rows(p, 'lines');
  return html`<tr><td>${str(p.period_start)} to ${str(p.period_end)}<details><summary>${lines.length} ${lines.length === 1 ? 'line' : 'lines'}</summary><ul>${lines.map(
    (l) => html`<li>${str(l.description)}: ${money(l.amount_minor, p.currency)}</li>`,
  )}</ul></details></td><td class="num">${money(p.amount_minor, p.currency)}</td><td>${coded(str(p.status), PAYOUT_WORDS)}</td><td>${str(p.paid_on) || '—'}</td><td>${str(p.reference) || '—'}</td></tr>`;
}

/** An unpaid payout and the form that records its payment (the day and the bank's reference). */
function markPaid(view: ContractorView, p: Row, day: string): Html {
  const { signed, back } = view;
  const id = str(p.id);
  return html`<li><p><strong>${str(p.period_start)} to ${str(p.period_end)}</strong> · ${money(p.amount_minor, p.currency)}</p>${actionOrRole(
    signed,
    'contractors.payouts.markPaid',
    'mark a payout paid',
    () =>
      actionForm(signed, 'contractors.payouts.markPaid', 'Mark paid', {
        back,
        hidden: { id, expectedRevision: Number(p.revision) },
        fields: html`<div class="actions"><div>${field('paidOn', 'Paid on', { id: `paid-on-${id}`, type: 'date', required: true, value: day })}</div><div>${field(
          'reference',
          'Payment reference',
          { id: `paid-ref-${id}`, required: true, hint: 'Transfer id or cheque number.' },
        )}</div></div>`,
      }),
  )}</li>`;
}
