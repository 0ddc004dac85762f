import { html, wallClockValue, when } from '../../html.ts';
import { cursorPager, pager, table } from '../../layout.ts';
import { actionForm, badge, coded, field, intParam, oneOf, type Row, rows, str } from '../components.ts';
import { callOperation } from '../context.ts';
import type { PageHandler } from '../routes.ts';

const LIMIT = 20;

/** Words for the stored codes; the code stays in the title for support. */
export const DISABLED_REASONS: Record<string, string> = {
  gone: 'the receiver answered 410 Gone (it says the address no longer exists)',
  consecutive_failures: 'too many failed deliveries in a row, none succeeding for a day',
};
const DELIVERY_STATUSES: Record<string, string> = {
  pending: 'Waiting',
  succeeded: 'Delivered',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
const OUTCOMES: Record<string, string> = { success: 'Delivered', failure: 'Failed' };

function endpointState(e: Row) {
  if (e.archived_at) return badge('Archived');
  if (e.active !== true) return badge('Turned off', 'bad');
  return Number(e.failure_count) > 0
    ? badge(`Failing (${str(e.failure_count)} in a row)`, 'warn')
    : badge('Active', 'ok');
}

/** Endpoints, with the create form (its secret is shown once on the answer). */
export const webhooksPage: PageHandler = async (services, signed, request) => {
  const offset = intParam(request.query.offset, 0);
  const data = await callOperation(services, signed, 'webhooks.endpoints.list', { limit: LIMIT, offset });
  const items = rows(data);
  const list = table(
    ['Endpoint', 'Events', 'State', 'Last success'],
    items.map(
      (
        e,
      ) => html`<tr><td><a href="/dashboard/webhooks/${str(e.id)}">${str(e.url)}</a><br><span class="muted">${str(e.description)}</span></td>
<td>${(e.events as string[] | undefined)?.join(', ') ?? ''}</td><td>${endpointState(e)}</td><td>${when(e.last_success_at, signed.viewer.timeZone)}</td></tr>`,
    ),
    'No endpoints yet. Add one below to receive events.',
  );
  return {
    title: 'Webhooks',
    current: 'webhooks',
    body: html`<section class="card"><h2>Endpoints</h2>${list}${pager('/dashboard/webhooks', {}, offset, LIMIT, items.length)}</section>
<section class="card"><h2>Add an endpoint</h2>${actionForm(
      signed,
      'webhooks.endpoints.create',
      'Add endpoint',
      {
        back: '/dashboard/webhooks',
        fields: html`${field('url', 'Receiver URL', { type: 'url', required: true, hint: 'https on port 443 or 8443, a public address.' })}
${field('description', 'Description')}
${field('events', 'Events', { required: true, value: '*', hint: 'Exact names (invoice.paid), groups (invoice.*) or *; separate with commas.' })}<p></p>`,
      },
    )}</section>`,
  };
};

/** One endpoint: its state, enable / rotate / test / recover, and its delivery log. */
export const webhookEndpointPage: PageHandler = async (services, signed, request) => {
  const id = str(request.params.id);
  const e = (await callOperation(services, signed, 'webhooks.endpoints.get', { id })) as Row;
  const back = `/dashboard/webhooks/${id}`;
  const cursor = typeof request.query.cursor === 'string' ? request.query.cursor : undefined;
  const status = oneOf(['pending', 'succeeded', 'failed', 'cancelled'] as const, request.query.status);
  const log = await callOperation(services, signed, 'webhooks.deliveries.list', {
    endpointId: id,
    limit: LIMIT,
    ...(cursor ? { cursor } : {}),
    ...(status ? { status } : {}),
  });
  const deliveries = rows(log);
  const revision = Number(e.revision);
  const zone = signed.viewer.timeZone;
  const since = wallClockValue(new Date(services.clock.now().getTime() - 86_400_000).toISOString(), zone);
  const actions = html`
${
  e.active !== true && !e.archived_at
    ? html`<p>This endpoint was turned off${e.disabled_reason ? html` because ${coded(str(e.disabled_reason), DISABLED_REASONS)}` : ''}. Turn it back on, then retry failed deliveries.</p>
${actionForm(signed, 'webhooks.endpoints.enable', 'Turn endpoint on', { back, hidden: { id, expectedRevision: revision } })}`
    : ''
}
${actionForm(signed, 'webhooks.endpoints.test', 'Send a test event', { back, hidden: { id }, style: 'secondary', inline: true })}
${actionForm(signed, 'webhooks.endpoints.rotateSecret', 'Rotate signing secret', {
  back,
  hidden: { id, expectedRevision: revision },
  style: 'danger',
  inline: true,
  confirm: 'Rotate the signing secret? The old one stops after the overlap period.',
})}
<h3>Recover failed deliveries</h3>
${actionForm(signed, 'webhooks.deliveries.recover', 'Recover failed deliveries', {
  back,
  // The wall clock of the organization's zone; the action turns it into the instant (_wallclock).
  hidden: { endpointId: id, _wallclock: 'since' },
  fields: field('since', `Failed since (${zone})`, {
    type: 'datetime-local',
    required: true,
    value: since,
    hint: 'Every delivery created at or after this time that failed is sent again.',
  }),
})}`;
  const logTable = table(
    ['Event', 'Status', 'Attempts', 'Last answer', 'Created', ''],
    deliveries.map(
      (d) => html`<tr><td><a href="/dashboard/webhooks/deliveries/${str(d.id)}">${str(d.event_type)}</a></td>
<td>${badge(coded(str(d.status), DELIVERY_STATUSES), d.status === 'succeeded' ? 'ok' : d.status === 'failed' ? 'bad' : '')}</td><td class="num">${str(d.attempt_count)}</td>
<td>${d.last_status_code === null ? str(d.last_error) || '—' : `HTTP ${str(d.last_status_code)}`}</td><td>${when(d.created_at, signed.viewer.timeZone)}</td>
<td>${d.status === 'failed' || d.status === 'cancelled' ? actionForm(signed, 'webhooks.deliveries.retry', 'Retry', { back, hidden: { id: str(d.id) }, style: 'secondary' }) : ''}</td></tr>`,
    ),
    status ? `No deliveries in “${DELIVERY_STATUSES[status]}”.` : 'No deliveries yet.',
  );
  return {
    title: `Endpoint ${str(e.url)}`,
    current: 'webhooks',
    body: html`<section class="card"><dl class="facts"><dt>State</dt><dd>${endpointState(e)}</dd><dt>Events</dt><dd>${(e.events as string[] | undefined)?.join(', ') ?? ''}</dd>
<dt>Secret</dt><dd>${str(e.secret_hint)} (version ${str(e.secret_version)})</dd><dt>Failures in a row</dt><dd>${str(e.failure_count)}</dd>
<dt>Last delivery</dt><dd>${when(e.last_delivery_at, signed.viewer.timeZone)}</dd><dt>Last success</dt><dd>${when(e.last_success_at, signed.viewer.timeZone)}</dd></dl>${actions}</section>
<section class="card"><h2>Delivery log</h2><p>${['', 'failed', 'pending', 'succeeded'].map((s) => html`<a href="${back}${s ? `?status=${s}` : ''}"${status === s || (!status && !s) ? html` aria-current="page"` : ''}>${s ? DELIVERY_STATUSES[s] : 'All'}</a> `)}</p>
${logTable}${cursorPager(back, status ? { status } : {}, (log as Row).nextCursor)}</section>`,
  };
};

/** One delivery with every attempt (status, timing, error, the answer's first bytes). */
export const webhookDeliveryPage: PageHandler = async (services, signed, request) => {
  const d = (await callOperation(services, signed, 'webhooks.deliveries.get', {
    id: str(request.params.id),
  })) as Row;
  const back = `/dashboard/webhooks/deliveries/${str(d.id)}`;
  const attempts = rows(d, 'attempts');
  return {
    title: `Delivery of ${str(d.event_type)}`,
    current: 'webhooks',
    body: html`<p><a href="/dashboard/webhooks/${str(d.endpoint_id)}">Back to the endpoint</a></p>
<section class="card"><dl class="facts"><dt>Status</dt><dd>${coded(str(d.status), DELIVERY_STATUSES)}</dd><dt>Event id</dt><dd><code>${str(d.event_id)}</code></dd>
<dt>Next attempt</dt><dd>${when(d.next_attempt_at, signed.viewer.timeZone)}</dd><dt>Last error</dt><dd>${str(d.last_error) || '—'}</dd></dl>
${d.status === 'failed' || d.status === 'cancelled' ? actionForm(signed, 'webhooks.deliveries.retry', 'Retry this delivery', { back, hidden: { id: str(d.id) } }) : ''}</section>
<section class="card"><h2>Attempts</h2>${table(
      ['#', 'Started', 'Took', 'Outcome', 'Answer'],
      attempts.map(
        (
          a,
        ) => html`<tr><td class="num">${str(a.attempt_number)}</td><td>${when(a.started_at, signed.viewer.timeZone)}</td><td class="num">${str(a.duration_ms)} ms</td>
<td>${badge(coded(str(a.outcome), OUTCOMES), a.outcome === 'success' ? 'ok' : 'bad')} ${a.status_code === null ? '' : `HTTP ${str(a.status_code)}`} ${str(a.error_class)} ${str(a.error_message)}</td>
<td><code>${str(a.response_excerpt).slice(0, 300)}</code></td></tr>`,
      ),
      'No attempt yet.',
    )}</section>`,
  };
};
