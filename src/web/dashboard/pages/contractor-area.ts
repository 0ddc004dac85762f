import { iso4217MinorUnit } from '../../../lib/currencies.ts';
import type { Services } from '../../../services.ts';
import { type Html, html, money } from '../../html.ts';
import { type Row, str } from '../components.ts';
import type { Signed } from '../context.ts';

/** The contractor area's own pages, linked from the top of each (the main navigation has one entry). */
const AREA: ReadonlyArray<readonly [string, string, string]> = [
  ['directory', 'Directory', '/dashboard/contractors'],
  ['roles', 'Job roles', '/dashboard/contractors/roles'],
  ['templates', 'Agreement templates', '/dashboard/contractors/templates'],
  ['tax', 'Tax year summary', '/dashboard/contractors/tax-summary'],
];

export function areaNav(current: string): Html {
  return html`<nav class="subnav" aria-label="Contractors area"><ul>${AREA.map(
    ([key, label, href]) =>
      html`<li><a href="${href}"${key === current ? html` aria-current="page"` : ''}>${label}</a></li>`,
  )}</ul></nav>`;
}

export const CADENCE_WORDS: Readonly<Record<string, string>> = {
  weekly: 'Weekly',
  biweekly: 'Every two weeks',
  semimonthly: 'Twice a month (1st and 16th)',
  monthly: 'Monthly',
};

export const HOURS_WORDS: Readonly<Record<string, string>> = {
  submitted: 'Waiting for approval',
  approved: 'Approved',
  rejected: 'Rejected',
  paid: 'Paid',
};

export const AGREEMENT_WORDS: Readonly<Record<string, string>> = {
  sent: 'Sent, not signed yet',
  signed: 'Signed',
  voided: 'Voided',
};

export const PAYOUT_WORDS: Readonly<Record<string, string>> = { unpaid: 'Not paid yet', paid: 'Paid' };

export const TEMPLATE_WORDS: Readonly<Record<string, string>> = {
  markdown_draft: 'Written here (Markdown)',
  uploaded_original: 'Uploaded file',
};

/** A role's rate as the other pages show money: `45.00 CAD/h`. */
export function rate(role: Row): string {
  return `${money(role.hourly_rate_minor, role.currency, iso4217MinorUnit(str(role.currency)) ?? 2)}/h`;
}

/** A rate as typed into the role form (`45.00`), in the currency's own decimals. */
export function rateValue(role: Row): string {
  return money(role.hourly_rate_minor, undefined, iso4217MinorUnit(str(role.currency)) ?? 2).replace(
    /,/g,
    '',
  );
}

/** Today's date (YYYY-MM-DD) on the organization's clock, the default of date inputs. */
export function today(now: Date, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** What the sections of one contractor's page share. */
export interface ContractorView {
  services: Services;
  signed: Signed;
  query: Record<string, string>;
  contractor: Row;
  role: Row | undefined;
  back: string;
}

/**
 * The offsets of a page's other paged lists, kept in one list's page links so that paging the
 * hours does not send the payouts back to their first page.
 */
export function otherOffsets(query: Record<string, string>, except: string): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const key of ['offset', 'rolesOffset', 'hoursOffset', 'payoutsOffset', 'agreementsOffset'])
    if (key !== except && /^\d{1,15}$/.test(query[key] ?? '')) kept[key] = query[key] as string;
  return kept;
}
