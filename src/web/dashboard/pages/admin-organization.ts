import { type Html, html, when } from '../../html.ts';
import { actionForm, type Row, str } from '../components.ts';
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
 * number prefix and how long company-mail scans are kept. An emptied optional field is cleared;
 * a refused value comes back beside its input with everything typed kept (decision 442).
 */
export const organizationPage: PageHandler = async (services, signed) => {
  const org = (await callOperation(services, signed, 'admin.organization.get', {})) as Row;
  const zone = str(org.time_zone);
  /** One labelled control with its hint, the refusal's message when it names it, the value kept. */
  const control = (
    name: string,
    label: string,
    hint: string,
    input: (id: string, value: string, attributes: Html | string) => Html,
  ) => {
    const id = `f-org-${name}`;
    const stored = {
      name: org.name,
      legalName: org.legal_name,
      address: org.address,
      timeZone: org.time_zone,
      defaultCurrency: org.default_currency,
      invoiceNumberPrefix: org.invoice_number_prefix,
      mailScanRetentionDays: org.mail_scan_retention_days,
    }[name];
    return html`<label for="${id}">${label}</label><p class="hint" id="${id}-hint">${hint}</p>${input(id, str(stored), html` aria-describedby="${id}-hint"`)}`;
  };
  const text =
    (name: string, extra: Html | string = '') =>
    (id: string, value: string, attributes: Html | string) =>
      html`<input id="${id}" name="${name}" type="text" value="${value}"${attributes}${extra}>`;
  const chosenZone = zone;
  return {
    title: 'Organization settings',
    current: 'admin',
    body: html`<p><a href="/dashboard/admin">Administration</a></p>
<section class="card">${actionForm(signed, 'admin.organization.update', 'Save settings', {
      back: BACK,
      hidden: { expectedRevision: Number(org.revision), _null: CLEARABLE },
      fields: html`${control('name', 'Name', 'Shown on these pages, invoices, their PDFs and mail.', text('name', html` required maxlength="200"`))}
${control('legalName', 'Legal name', 'The registered name, if it differs; leave empty for none.', text('legalName', html` maxlength="300"`))}
${control('address', 'Address', 'Printed on invoices; several lines.', (id, value, attributes) => html`<textarea id="${id}" name="address" rows="4" maxlength="1000"${attributes}>${value}</textarea>`)}
${control(
  'timeZone',
  'Time zone',
  'Every time on these pages and the dates on invoices are on this clock.',
  (id, _value, attributes) =>
    html`<select id="${id}" name="timeZone"${attributes}>${zones(chosenZone).map((z) => html`<option${z === chosenZone ? html` selected` : ''}>${z}</option>`)}</select>`,
)}
${control('defaultCurrency', 'Default currency', 'Three capital letters (EUR, USD), proposed for new documents; leave empty for none.', text('defaultCurrency', html` maxlength="3" pattern="[A-Z]{3}" autocapitalize="characters"`))}
${control('invoiceNumberPrefix', 'Invoice number prefix', 'Put before invoice numbers taken from now on, e.g. INV- in INV-000001 (letters, digits, . / _ -).', text('invoiceNumberPrefix', html` maxlength="20" pattern="[A-Za-z0-9./_\\-]{0,20}"`))}
${control(
  'mailScanRetentionDays',
  'Keep company-mail scans (days)',
  'Scans of an archived letter are deleted after this many days; leave empty to keep them.',
  (id, value, attributes) =>
    html`<input id="${id}" name="mailScanRetentionDays" type="number" min="1" max="3650" value="${value}"${attributes}>`,
)}<p></p>`,
    })}
<p class="hint">Last changed ${when(org.updated_at, zone)} (revision ${str(org.revision)}).</p></section>`,
  };
};
