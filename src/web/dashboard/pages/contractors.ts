import { html, money, when } from '../../html.ts';
import { pager, table } from '../../layout.ts';
import { actionForm, badge, coded, field, intParam, rows, str } from '../components.ts';
import { callOperation } from '../context.ts';
import type { PageHandler } from '../routes.ts';

const LIMIT = 20;
const PORTAL_WORDS: Record<string, string> = {
  not_invited: 'Not invited yet',
  invited: 'Invited, not joined yet',
  invitation_expired: 'Invitation expired (invite again)',
  invitation_revoked: 'Invitation revoked (invite again)',
  joined: 'Joined',
};
const INVITATION_WORDS: Record<string, string> = {
  open: 'Open',
  accepted: 'Accepted',
  revoked: 'Revoked',
  replaced: 'Replaced by a newer one',
  expired: 'Expired',
};

/** Contractors with a name search, and the directory (roles, rates, agreements, pending hours). */
export const contractorsPage: PageHandler = async (services, signed, request) => {
  const offset = intParam(request.query.offset, 0);
  const query = str(request.query.query).slice(0, 200);
  const input = { limit: LIMIT, offset, ...(query ? { query } : {}) };
  const directory = rows(await callOperation(services, signed, 'contractorOps.directory.list', input));
  return {
    title: 'Contractors',
    current: 'contractors',
    body: html`<section class="card"><form method="get" action="/dashboard/contractors" role="search"><label for="query">Search by name</label>
<input id="query" name="query" type="text" value="${query}"> <button class="secondary" type="submit">Search</button></form>
${table(
  ['Name', 'E-mail', 'Role', 'Rate', 'Agreement', 'Pending hours', 'Portal'],
  directory.map(
    (
      c,
    ) => html`<tr><td><a href="/dashboard/contractors/${str(c.id)}">${str(c.display_name)}</a></td><td>${str(c.email)}</td>
<td>${str((c.job_role as { name?: string } | null)?.name) || '—'}</td><td class="num">${c.hourly_rate_minor ? `${money(c.hourly_rate_minor, c.currency)}/h` : '—'}</td>
<td>${c.agreement_on_file ? 'on file' : badge('missing', 'warn')}</td><td class="num">${str(c.pending_hours) || '0'}</td><td>${c.active ? 'active' : 'off'}</td></tr>`,
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

/** One contractor: details, portal invitations, invite and revoke. */
export const contractorPage: PageHandler = async (services, signed, request) => {
  const id = str(request.params.id);
  const c = (await callOperation(services, signed, 'contractors.get', { id })) as Record<string, unknown>;
  const invitations = rows(
    await callOperation(services, signed, 'contractors.invitations.list', { contractorId: id, limit: 20 }),
  );
  const back = `/dashboard/contractors/${id}`;
  return {
    title: str(c.display_name),
    current: 'contractors',
    body: html`<section class="card"><dl class="facts"><dt>Legal name</dt><dd>${str(c.legal_name)}</dd><dt>E-mail</dt><dd>${str(c.email)}</dd>
<dt>Country</dt><dd>${str(c.country) || '—'}</dd><dt>Portal</dt><dd>${coded(str(c.portal_status), PORTAL_WORDS)}</dd><dt>Joined</dt><dd>${when(c.joined_at, signed.viewer.timeZone)}</dd></dl>
${c.joined_at ? '' : actionForm(signed, 'contractors.invite', 'E-mail a portal invitation', { back, hidden: { id, expectedRevision: Number(c.revision) } })}</section>
<section class="card"><h2>Invitations</h2>${table(
      ['Sent to', 'Status', 'Expires', ''],
      invitations.map(
        (i) =>
          html`<tr><td>${str(i.email)}</td><td>${coded(str(i.status), INVITATION_WORDS)}</td><td>${when(i.expires_at, signed.viewer.timeZone)}</td><td>${
            i.status === 'open'
              ? actionForm(signed, 'contractors.invitations.revoke', 'Revoke', {
                  back,
                  hidden: { id: str(i.id), expectedRevision: Number(i.revision) },
                  style: 'danger',
                  confirm: 'Revoke this invitation? Its link stops working.',
                })
              : ''
          }</td></tr>`,
      ),
      'No invitation sent yet.',
    )}</section>`,
  };
};
