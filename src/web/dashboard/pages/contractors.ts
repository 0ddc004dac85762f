import { html } from '../../html.ts';
import { pager, table } from '../../layout.ts';
import { actionForm, badge, field, intParam, rows, str } from '../components.ts';
import { callOperation } from '../context.ts';
import type { PageHandler } from '../routes.ts';
import { areaNav, rate } from './contractor-area.ts';

const LIMIT = 20;

/** Contractors with a name search, and the directory (roles, rates, agreements, pending hours). */
export const contractorsPage: PageHandler = async (services, signed, request) => {
  const offset = intParam(request.query.offset, 0);
  const query = str(request.query.query).slice(0, 200);
  const input = { limit: LIMIT, offset, ...(query ? { query } : {}) };
  const directory = rows(await callOperation(services, signed, 'contractorOps.directory.list', input));
  return {
    title: 'Contractors',
    current: 'contractors',
    body: html`${areaNav('directory')}<section class="card"><form method="get" action="/dashboard/contractors" role="search"><label for="query">Search by name</label>
<input id="query" name="query" type="text" value="${query}"> <button class="secondary" type="submit">Search</button></form>
${table(
  ['Name', 'E-mail', 'Role', 'Rate', 'Agreement', 'Pending hours', 'Portal'],
  directory.map(
    (
      c,
    ) => html`<tr><td><a href="/dashboard/contractors/${str(c.id)}">${str(c.display_name)}</a></td><td>${str(c.email)}</td>
<td>${str((c.job_role as { name?: string } | null)?.name) || '—'}</td><td class="num">${c.hourly_rate_minor ? rate(c) : '—'}</td>
<td>${c.agreement_on_file ? 'Signed, on file' : badge('None signed', 'warn')}</td><td class="num">${str(c.pending_hours) || '0'}</td><td>${c.active ? 'Access on' : 'Access off'}</td></tr>`,
  ),
  query ? `No contractor matches “${query}”.` : 'No contractors yet: add the first one below.',
)}${pager('/dashboard/contractors', query ? { query } : {}, offset, LIMIT, directory.length)}</section>
<section class="card"><h2>Add a contractor</h2>${actionForm(signed, 'contractors.create', 'Add contractor', {
      back: '/dashboard/contractors',
      fields: html`${field('displayName', 'Name', { id: 'contractor-name', required: true, hint: 'As shown in the app.' })}
${field('legalName', 'Legal name', { id: 'contractor-legal-name', required: true, hint: 'As on agreements and payouts.' })}
${field('email', 'E-mail', { id: 'contractor-email', type: 'email', required: true, hint: 'Where the portal invitation goes (sent from the next page).' })}`,
    })}</section>`,
  };
};
