import { type Html, html, when } from '../../html.ts';
import { actionForm, actionOrRole, coded, field, type Row, str } from '../components.ts';
import type { ContractorView } from './contractor-area.ts';

const PORTAL_WORDS: Record<string, string> = {
  not_invited: 'Not invited yet',
  invited: 'Invited, not joined yet',
  invitation_expired: 'Invitation expired (invite again)',
  invitation_revoked: 'Invitation revoked (invite again)',
  joined: 'Joined',
};

/** Who the contractor is, the portal invitation, and changing the details and the e-mail. */
export function detailsSection(view: ContractorView): Html {
  const { signed, contractor: c, back } = view;
  const id = str(c.id);
  const revision = Number(c.revision);
  return html`<section class="card"><dl class="facts"><dt>Legal name</dt><dd>${str(c.legal_name)}</dd><dt>E-mail</dt><dd>${str(c.email)}</dd>
<dt>Country</dt><dd>${str(c.country) || '—'}</dd><dt>Portal</dt><dd>${coded(str(c.portal_status), PORTAL_WORDS)}${c.active === false ? ' (access turned off)' : ''}</dd><dt>Joined</dt><dd>${when(c.joined_at, signed.viewer.timeZone)}</dd></dl>
${c.joined_at ? '' : actionOrRole(signed, 'contractors.invite', 'invite a contractor', () => actionForm(signed, 'contractors.invite', 'E-mail a portal invitation', { back, hidden: { id, expectedRevision: revision } }))}
<details class="edit"><summary>Change details</summary>${actionOrRole(
    signed,
    'contractors.update',
    'change a contractor',
    () =>
      actionForm(signed, 'contractors.update', 'Save details', {
        back,
        // An emptied country clears it (forms.ts `_null`).
        hidden: { id, expectedRevision: revision, _null: 'country' },
        fields: html`${field('displayName', 'Name', { id: 'edit-name', required: true, value: str(c.display_name) })}
${field('legalName', 'Legal name', { id: 'edit-legal-name', required: true, value: str(c.legal_name) })}
${field('country', 'Country (optional)', { id: 'edit-country', value: str(c.country), hint: 'Two letters, e.g. CA, DE, US.' })}
${accessFields(view, c)}<p></p>`,
      }),
  )}</details>
<details class="edit"><summary>Change the e-mail address</summary>${emailForm(view, c)}</details></section>`;
}

/** Portal access is the admin's to turn off or on (the operation's restricted field). */
function accessFields(view: ContractorView, c: Row): Html {
  if (view.signed.principal.role !== 'admin')
    return html`<p class="hint">Only an admin may turn portal access off or on.</p>`;
  return html`<label for="edit-active">Portal access</label><select id="edit-active" name="active"><option value="true"${c.active === false ? '' : html` selected`}>On</option><option value="false"${c.active === false ? html` selected` : ''}>Off</option></select>
<label class="choice"><input type="checkbox" name="acknowledgeUnpaid" value="true"> Turn off even with hours or payouts still open</label>`;
}

function emailForm(view: ContractorView, c: Row): Html {
  const { signed, back } = view;
  if (c.joined_at && signed.principal.role !== 'admin')
    return html`<p class="hint" role="note"><strong>You cannot change this e-mail:</strong> the contractor has joined the portal, so it needs the admin role and yours is ${signed.principal.role}.</p>`;
  return actionForm(signed, 'contractors.email.update', 'Save e-mail', {
    back,
    hidden: { id: str(c.id), expectedRevision: Number(c.revision) },
    fields: html`${field('email', 'New e-mail', { id: 'edit-email', type: 'email', required: true, value: str(c.email), hint: c.joined_at ? 'They leave the portal until they accept the invitation sent to the new address; the old address is told.' : 'An open invitation to the old address stops working; invite again.' })}<p></p>`,
  });
}
