import { type Html, html, when } from '../../html.ts';
import { table } from '../../layout.ts';
import { actionForm, actionOrRole, coded, field, type Row, rows, str } from '../components.ts';
import { callOperation, everyItem, type Signed } from '../context.ts';
import type { PageHandler } from '../routes.ts';
import { agreementsSection } from './contractor-agreements.ts';
import { CADENCE_WORDS, rate } from './contractor-area.ts';
import { detailsSection } from './contractor-details.ts';
import { hoursSection, payoutsSection } from './contractor-work.ts';

const INVITATION_WORDS: Record<string, string> = {
  open: 'Open',
  accepted: 'Accepted',
  revoked: 'Revoked',
  replaced: 'Replaced by a newer one',
  expired: 'Expired',
};

/**
 * One contractor, everything a finance member does by hand: the job role and its rate, hours to
 * approve or reject, agreements sent and their state, payouts and marking them paid, the tax
 * profile, and the portal invitation. Each section reads and acts through catalog operations.
 */
export const contractorPage: PageHandler = async (services, signed, request) => {
  const id = str(request.params.id);
  const c = (await callOperation(services, signed, 'contractors.get', { id })) as Row;
  const roles = await everyItem(services, signed, 'contractorOps.roles.list', {});
  const role = roles.find((r) => r.id === c.job_role_id);
  const back = `/dashboard/contractors/${id}`;
  const view = { services, signed, query: request.query, contractor: c, role, back };
  return {
    title: str(c.display_name),
    current: 'contractors',
    body: html`<p><a href="/dashboard/contractors">All contractors</a></p>
${detailsSection(view)}
${roleSection(signed, c, role, roles, back)}
${await hoursSection(view)}
${await payoutsSection(view)}
${await agreementsSection(view)}
${taxSection(signed, c, back)}
${await invitationsSection(services, signed, id, back)}`,
  };
};

function roleSection(signed: Signed, c: Row, role: Row | undefined, roles: Row[], back: string): Html {
  const active = roles.filter((r) => r.active === true);
  const current = role
    ? html`<dl class="facts"><dt>Role</dt><dd>${str(role.name)}${role.active === true ? '' : ' (inactive)'}</dd><dt>Rate</dt><dd>${rate(role)}</dd><dt>Paid</dt><dd>${coded(str(role.pay_cadence), CADENCE_WORDS)}</dd></dl>`
    : html`<p class="empty">No job role yet: hours cannot be submitted and nothing can be paid until one is assigned.</p>`;
  const form = actionOrRole(signed, 'contractorOps.roles.assign', 'assign a job role', () =>
    active.length === 0
      ? html`<p class="hint">No active job role exists yet. <a href="/dashboard/contractors/roles">Add one</a>.</p>`
      : actionForm(signed, 'contractorOps.roles.assign', role ? 'Change role' : 'Assign role', {
          back,
          // An empty choice clears the role (forms.ts `_null`).
          hidden: { contractorId: str(c.id), expectedRevision: Number(c.revision), _null: 'jobRoleId' },
          fields: html`<label for="assign-role">Job role</label><select id="assign-role" name="jobRoleId">${active.map(
            (r) =>
              html`<option value="${str(r.id)}"${r.id === c.job_role_id ? html` selected` : ''}>${str(r.name)} (${rate(r)})</option>`,
          )}<option value=""${role ? '' : html` selected`}>No role</option></select><p></p>`,
        }),
  );
  return html`<section class="card"><h2>Job role and rate</h2>${current}${form}<p class="hint"><a href="/dashboard/contractors/roles">Manage job roles</a></p></section>`;
}

function taxSection(signed: Signed, c: Row, back: string): Html {
  const tax = (c.tax_profile ?? {}) as Row;
  const yesNo = (value: unknown) => (value === true ? 'Yes' : value === false ? 'No' : 'Not reviewed');
  const choice = (name: string, label: string, value: unknown) =>
    html`<label for="tax-${name}">${label}</label><select id="tax-${name}" name="${name}"><option value="false"${value === true ? '' : html` selected`}>No</option><option value="true"${value === true ? html` selected` : ''}>Yes</option></select>`;
  return html`<section class="card"><h2>Tax profile</h2><dl class="facts"><dt>Tax residency</dt><dd>${str(tax.residency) || 'Not reviewed'}</dd>
<dt>Services in Canada</dt><dd>${yesNo(tax.services_in_canada)}</dd><dt>Identity confirmed</dt><dd>${yesNo(tax.identity_confirmed)}</dd><dt>Last reviewed</dt><dd>${when(tax.reviewed_at, signed.viewer.timeZone)}</dd></dl>
<details><summary>Record a review</summary>${actionOrRole(
    signed,
    'contractors.taxProfile.review',
    'review a tax profile',
    () =>
      actionForm(signed, 'contractors.taxProfile.review', 'Record review', {
        back,
        hidden: { id: str(c.id), expectedRevision: Number(c.revision) },
        fields: html`${field('residency', 'Country of tax residency', { id: 'tax-residency', required: true, value: str(tax.residency) || str(c.country), hint: 'Two letters, e.g. CA, DE, US.' })}
${choice('servicesInCanada', 'Performs services in Canada', tax.services_in_canada)}${choice('identityConfirmed', 'Identity confirmed', tax.identity_confirmed)}<p></p>`,
      }),
  )}</details></section>`;
}

async function invitationsSection(
  services: Parameters<PageHandler>[0],
  signed: Signed,
  id: string,
  back: string,
): Promise<Html> {
  const invitations = rows(
    await callOperation(services, signed, 'contractors.invitations.list', { contractorId: id, limit: 20 }),
  );
  return html`<section class="card"><h2>Portal invitations</h2>${table(
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
  )}</section>`;
}
