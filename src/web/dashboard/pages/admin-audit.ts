import { AppError } from '../../../contract/errors.ts';
import { OPERATIONS } from '../../../operations/catalog.ts';
import { type Html, html, instantFromWallClock, when } from '../../html.ts';
import { cursorPager, table } from '../../layout.ts';
import { coded, type Row, rows, str } from '../components.ts';
import { callOperation } from '../context.ts';
import type { PageHandler } from '../routes.ts';

const PATH = '/dashboard/admin/audit';
const LIMIT = 30;
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WALL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const ACTOR_TYPES: Readonly<Record<string, string>> = {
  member: 'Member',
  system: 'Background job',
  contractor: 'Contractor (portal)',
  operator: 'Operator (command line)',
};
const TRANSPORTS: Readonly<Record<string, string>> = {
  http: 'API',
  mcp: 'MCP',
  cli: 'Command line',
  job: 'Job',
  portal: 'Portal',
  dashboard: 'Dashboard',
};
/** Audited acts that are not catalog operations, in words (jobs show their name alone). */
const ACTS: Readonly<Record<string, string>> = {
  'dashboard.signIn': 'Signed in to the dashboard',
  'dashboard.signIn.link': 'Sent a sign-in link',
  'dashboard.signOut': 'Signed out of the dashboard',
  'dashboard.sessions.end': 'Ended a dashboard session',
  init: 'Set up the service',
  'admin.organizations.create': 'Created the organization',
  'admin.organizations.suspend': 'Suspended the organization',
  'admin.organizations.reinstate': 'Reinstated the organization',
};
/** What the operation's filter offers: every change in the catalog (audit rows name changes). */
const CHANGES = OPERATIONS.filter((o) => o.mutation).map((o) => o.name);

interface Filters {
  actorId?: string;
  operation?: string;
  recordType?: string;
  recordId?: string;
  /** Wall-clock values as typed (datetime-local, the organization's zone). */
  from?: string;
  to?: string;
}

/**
 * The audit log (`admin.auditLog.list`): who changed what, how and when, newest first, filtered by
 * actor, operation, record and a time range typed on the organization's clock; cursor pages.
 * A filter the operation would refuse (a malformed record id, a reversed range) is named beside
 * its input, the typed values kept.
 */
export const auditLogPage: PageHandler = async (services, signed, request) => {
  const query = request.query;
  const zone = signed.viewer.timeZone;
  const filters: Filters = {};
  for (const key of ['actorId', 'operation', 'recordType', 'recordId', 'from', 'to'] as const) {
    const value = str(query[key]).trim().slice(0, 200);
    if (value) filters[key] = value;
  }
  const problems: Partial<Record<keyof Filters, string>> = {};
  if (filters.recordId && !ID.test(filters.recordId))
    problems.recordId = 'A record id looks like 0192f3a0-…: 36 letters, digits and hyphens.';
  const from = filters.from && WALL.test(filters.from) ? instantFromWallClock(filters.from, zone) : undefined;
  const to = filters.to && WALL.test(filters.to) ? instantFromWallClock(filters.to, zone) : undefined;
  if (filters.from && !from) problems.from = 'Give a date and time.';
  if (filters.to && !to) problems.to = 'Give a date and time.';
  if (from && to && to <= from) problems.to = '“To” must be after “From”.';
  const members = rows(await callOperation(services, signed, 'admin.members.list', { limit: 100 }));
  const names = new Map(members.map((m) => [str(m.id), str(m.name) || str(m.email)]));
  const apiKeys = rows(await callOperation(services, signed, 'admin.apiKeys.list', { limit: 100 }));
  const keys = new Map(apiKeys.map((k) => [str(k.id), str(k.name) || 'unnamed']));
  let page: Row = { items: [], nextCursor: null };
  if (Object.keys(problems).length === 0) {
    try {
      page = (await callOperation(services, signed, 'admin.auditLog.list', {
        limit: LIMIT,
        ...(typeof query.cursor === 'string' && query.cursor ? { cursor: query.cursor } : {}),
        ...(filters.actorId ? { actorId: filters.actorId } : {}),
        ...(filters.operation ? { operation: filters.operation } : {}),
        ...(filters.recordType ? { recordType: filters.recordType } : {}),
        ...(filters.recordId ? { recordId: filters.recordId } : {}),
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
      })) as Row;
    } catch (error) {
      // A refused filter (a stale cursor, a value out of bounds) is shown beside the form.
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      const field = (error.field ?? 'operation') as keyof Filters;
      problems[field in filters ? field : 'operation'] = error.message;
    }
  }
  const entries = rows(page);
  const params = Object.fromEntries(Object.entries(filters)) as Record<string, string>;
  const filtered = Object.keys(params).length > 0;
  return {
    title: 'Audit log',
    current: 'admin',
    body: html`<p><a href="/dashboard/admin">Administration</a></p>
<section class="card">${filterForm(filters, problems, members, zone)}
${table(
  ['When', 'Who', 'What', 'Record', 'How'],
  entries.map((e) => entryRow(e, names, keys, zone)),
  filtered ? 'No audit entry matches these filters.' : 'Nothing has been changed yet.',
  'Audit entries, newest first',
)}${query.cursor ? html`<p><a href="${PATH}?${new URLSearchParams(params).toString()}">Back to the newest entries</a></p>` : ''}${cursorPager(PATH, params, page.nextCursor)}</section>`,
  };
};

function filterForm(
  filters: Filters,
  problems: Partial<Record<keyof Filters, string>>,
  members: readonly Row[],
  zone: string,
): Html {
  const error = (name: keyof Filters) =>
    problems[name]
      ? html`<p class="field-error" id="${name}-error"><strong>${problems[name] ?? ''}</strong></p>`
      : '';
  const invalid = (name: keyof Filters) =>
    problems[name] ? html` aria-invalid="true" aria-describedby="${name}-error"` : '';
  const text = (name: keyof Filters, label: string, type: string, extra: Html | string = '') =>
    html`<div><label for="${name}">${label}</label>${error(name)}<input id="${name}" name="${name}" type="${type}" value="${filters[name] ?? ''}"${invalid(name)}${extra}></div>`;
  const known = members.some((m) => m.id === filters.actorId);
  return html`<form method="get" action="${PATH}" role="search"><div class="grid">
<div><label for="actorId">Who</label>${error('actorId')}<select id="actorId" name="actorId"${invalid('actorId')}><option value="">Anyone</option>${members.map(
    (m) =>
      html`<option value="${str(m.id)}"${m.id === filters.actorId ? html` selected` : ''}>${str(m.name) || str(m.email)}</option>`,
  )}${filters.actorId && !known ? html`<option value="${filters.actorId}" selected>${filters.actorId}</option>` : ''}</select></div>
${text('operation', 'Operation', 'text', html` list="audit-operations" maxlength="200"`)}<datalist id="audit-operations">${CHANGES.map((name) => html`<option value="${name}"></option>`)}</datalist>
${text('recordType', 'Kind of record', 'text', html` maxlength="100" placeholder="member, api_key, entry…"`)}
${text('recordId', 'Record id', 'text', html` maxlength="36"`)}
${text('from', `From (${zone})`, 'datetime-local')}
${text('to', `Before (${zone})`, 'datetime-local')}</div>
<p><button class="secondary" type="submit">Filter</button> <a href="${PATH}">Clear the filters</a></p></form>`;
}

function entryRow(
  e: Row,
  names: ReadonlyMap<string, string>,
  keys: ReadonlyMap<string, string>,
  zone: string,
): Html {
  const actor = str(e.actor_id);
  // A job or the operator by its name (`job:receipts.extract` -> receipts.extract).
  const who = names.get(actor) ?? actor.replace(/^(job|operator):/, '');
  const name = str(e.operation);
  const summary = OPERATIONS.find((o) => o.name === name)?.summary ?? ACTS[name];
  const revisions =
    e.before_revision === null
      ? 'created'
      : e.after_revision === null
        ? 'deleted'
        : `revision ${str(e.before_revision)} → ${str(e.after_revision)}`;
  const filterBy = (key: string, value: string) =>
    `${PATH}?${new URLSearchParams({ [key]: value }).toString()}`;
  return html`<tr><td>${when(e.created_at, zone)}</td>
<td><a href="${filterBy('actorId', actor)}">${who}</a><br><span class="muted">${coded(str(e.actor_type), ACTOR_TYPES)}</span></td>
<td>${summary ? html`<a href="${filterBy('operation', name)}">${summary}</a><br><code>${name}</code>` : html`<a href="${filterBy('operation', name)}"><code>${name}</code></a>`}</td>
<td>${coded(str(e.record_type))} <a href="${filterBy('recordId', str(e.record_id))}" title="Every change of this record">…${str(e.record_id).slice(-8)}</a><br><span class="muted">${revisions}</span></td>
<td>${coded(str(e.transport), TRANSPORTS)}${e.credential_id ? html`<br><span class="muted" title="${str(e.credential_id)}">${credential(str(e.credential_id), keys)}</span>` : ''}</td></tr>`;
}

/**
 * The credential in words: a dashboard session, single sign-on, or the API key by its name. Ids
 * are UUIDv7, whose first characters are the time: their last ones tell records apart.
 */
function credential(id: string, keys: ReadonlyMap<string, string>): string {
  if (id.startsWith('session:')) return 'signed-in session';
  if (id.startsWith('oauth:')) return 'single sign-on token';
  if (id === 'sign-in-link') return 'sign-in link';
  const name = keys.get(id);
  return name ? `key “${name}”` : `key …${id.slice(-8)}`;
}
