import { type Html, html, money } from '../../html.ts';
import { table } from '../../layout.ts';
import { intParam, type Row, rows, str } from '../components.ts';
import { callOperation } from '../context.ts';
import type { PageHandler } from '../routes.ts';
import { areaNav } from './contractor-area.ts';

const PATH = '/dashboard/contractors/tax-summary';

const yesNo = (value: unknown): string => (value === true ? 'yes' : value === false ? 'no' : 'not reviewed');

/**
 * The tax year's fees paid per contractor (payouts marked paid in the year) and the slips that
 * apply (contractors.taxSummary), with the same summary as a CSV to download.
 */
export const taxSummaryPage: PageHandler = async (services, signed, request) => {
  const thisYear = Number(
    new Intl.DateTimeFormat('en-CA', { timeZone: signed.viewer.timeZone, year: 'numeric' }).format(
      services.clock.now(),
    ),
  );
  const year = intParam(request.query.year, thisYear, 2100);
  const summary = (await callOperation(services, signed, 'contractors.taxSummary', { year })) as Row;
  const items = rows(summary);
  return {
    title: `Tax year summary ${year}`,
    current: 'contractors',
    body: html`${areaNav('tax')}<section class="card"><form method="get" action="${PATH}"><label for="tax-year">Year</label>
<input id="tax-year" name="year" type="number" min="2000" max="2100" value="${String(year)}"> <button class="secondary" type="submit">Show</button></form>
<p class="hint">Cash basis: payouts marked paid with a payment date in the year. Slips follow each contractor's reviewed tax profile.</p>
${table(
  ['Contractor', 'Tax residency', 'Fees paid', 'Payouts', 'Slips', 'Withholding'],
  items.map(
    (i) =>
      html`<tr><td><a href="/dashboard/contractors/${str(i.contractor_id)}">${str(i.legal_name)}</a></td><td>${str(i.residency) || 'not reviewed'} (services in Canada: ${yesNo(i.services_in_canada)})</td><td class="num">${money(i.fees_paid_minor, i.currency)}</td><td class="num">${str(i.payout_count)}</td><td>${slips(i)}</td><td class="num">${i.withholding_minor ? money(i.withholding_minor, i.currency) : '—'}</td></tr>`,
  ),
  `No payout was marked paid in ${year}.`,
  `Fees paid in ${year}`,
)}
${items.length ? html`<p><a href="${PATH}/csv?year=${String(year)}">Download as CSV</a></p>` : ''}</section>`,
  };
};

function slips(item: Row): Html | string {
  const list = rows(item, 'slips');
  if (list.length === 0) return 'None';
  return html`${list.map((s, n) => html`${n ? '; ' : ''}${str(s.form)}${s.box ? ` box ${str(s.box)}` : ''}: ${str(s.basis)}`)}`;
}
