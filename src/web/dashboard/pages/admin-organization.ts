import { type Html, html, when } from '../../html.ts';
import { actionForm, field, type Row, str } from '../components.ts';
import { callOperation } from '../context.ts';
import type { PageHandler } from '../routes.ts';

const BACK = '/dashboard/admin/organization';
/** Fields an emptied input clears (null); the others are required or keep their value. */
const CLEARABLE = 'legalName,address,defaultCurrency,mailScanRetentionDays';

/** Every zone this server's ICU knows, UTC first; the organization's own always among them. */
function zones(current: string): string[] {
  const known = Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC');
  return ['UTC', ...(known.includes(current) || current === 'UTC' ? [] : [current]), ...known];
}

/**
 * The organization's settings as one form (`admin.organization.get` / `.update`): name, legal
 * name, address, time zone (every time on these pages follows it), default currency, invoice
 * number prefix and how long company-mail scans are kept. An emptied optional field is cleared.
 */
export const organizationPage: PageHandler = async (services, signed) => {
  const org = (await callOperation(services, signed, 'admin.organization.get', {})) as Row;
  const zone = str(org.time_zone);
  const optional = (name: string, label: string, value: unknown, hint: string, extra: Html | string = '') =>
    html`<label for="f-org-${name}">${label}</label><p class="hint" id="f-org-${name}-hint">${hint}</p><input id="f-org-${name}" name="${name}" type="text" value="${str(value)}" aria-describedby="f-org-${name}-hint"${extra}>`;
  return {
    title: 'Organization settings',
    current: 'admin',
    body: html`<p><a href="/dashboard/admin">Administration</a></p>
<section class="card">${actionForm(signed, 'admin.organization.update', 'Save settings', {
      back: BACK,
      hidden: { expectedRevision: Number(org.revision), _nullable: CLEARABLE },
      fields: html`${field('name', 'Name', { required: true, id: 'f-org-name', value: str(org.name), hint: 'Shown on these pages, invoices, their PDFs and mail.' })}
${optional('legalName', 'Legal name', org.legal_name, 'The registered name, if it differs; leave empty for none.', html` maxlength="300"`)}
<label for="f-org-address">Address</label><p class="hint" id="f-org-address-hint">Printed on invoices; several lines.</p><textarea id="f-org-address" name="address" rows="4" maxlength="1000" aria-describedby="f-org-address-hint">${str(org.address)}</textarea>
<label for="f-org-timeZone">Time zone</label><p class="hint" id="f-org-timeZone-hint">Every time on these pages and the dates on invoices are on this clock.</p><select id="f-org-timeZone" name="timeZone" aria-describedby="f-org-timeZone-hint">${zones(
        zone,
      ).map((z) => html`<option${z === zone ? html` selected` : ''}>${z}</option>`)}</select>
${optional('defaultCurrency', 'Default currency', org.default_currency, 'Three capital letters (EUR, USD), proposed for new documents; leave empty for none.', html` maxlength="3" pattern="[A-Z]{3}" autocapitalize="characters"`)}
${optional('invoiceNumberPrefix', 'Invoice number prefix', org.invoice_number_prefix, 'Put before invoice numbers taken from now on, e.g. INV- in INV-000001 (letters, digits, . / _ -).', html` maxlength="20" pattern="[A-Za-z0-9./_\\-]{0,20}"`)}
<label for="f-org-mailScanRetentionDays">Keep company-mail scans (days)</label><p class="hint" id="f-org-mailScanRetentionDays-hint">Scans of an archived letter are deleted after this many days; leave empty to keep them.</p><input id="f-org-mailScanRetentionDays" name="mailScanRetentionDays" type="number" min="1" max="3650" value="${str(org.mail_scan_retention_days)}" aria-describedby="f-org-mailScanRetentionDays-hint"><p></p>`,
    })}
<p class="hint">Last changed ${when(org.updated_at, zone)} (revision ${str(org.revision)}).</p></section>`,
  };
};
