import { type Html, html, when } from '../../html.ts';
import { pager, table } from '../../layout.ts';
import { actionForm, badge, coded, field, intParam, oneOf, type Row, rows, str } from '../components.ts';
import { callOperation, everyItem, type Signed } from '../context.ts';
import type { PageHandler } from '../routes.ts';

const BACK = '/dashboard/admin';
const OUTBOX = ['pending', 'sent', 'kept', 'failed'] as const;

/**
 * Administration: members (add, change role, suspend, reinstate, remove), API keys (creator and
 * expiry; create with an optional expiry, the key shown once; revoke), the mail outbox, and links
 * to the audit log and the organization's settings.
 */
export const adminPage: PageHandler = async (services, signed, request) => {
  const members = await everyItem(services, signed, 'admin.members.list', {});
  const keys = await everyItem(services, signed, 'admin.apiKeys.list', {});
  const offset = intParam(request.query.offset, 0);
  const status = oneOf(OUTBOX, request.query.status);
  const outbox = rows(
    await callOperation(services, signed, 'admin.mailOutbox.list', {
      limit: 20,
      offset,
      ...(status ? { status } : {}),
    }),
  );
  const names = new Map(members.map((m) => [str(m.id), str(m.name) || str(m.email)]));
  const zone = signed.viewer.timeZone;
  return {
    title: 'Administration',
    current: 'admin',
    body: html`<p><a href="/dashboard/admin/organization">Organization settings</a> · <a href="/dashboard/admin/audit">Audit log</a></p>
<section class="card"><h2>Members</h2>${table(
      ['Member', 'Role', 'Status', ''],
      members.map((m) => memberRow(signed, m)),
      'No members.',
    )}
<h3>Add a member</h3>${actionForm(signed, 'admin.members.add', 'Add member', {
      back: BACK,
      fields: html`${field('email', 'E-mail', { type: 'email', required: true, id: 'f-member-email' })}${field('name', 'Name', { id: 'f-member-name' })}
<label for="f-member-role">Role</label><select id="f-member-role" name="role"><option value="finance">Finance</option><option value="admin">Admin</option></select><p></p>`,
    })}</section>
<section class="card"><h2>API keys</h2>${table(
      ['Name', 'Created by', 'Scopes', 'Status', 'Expires', 'Last used', ''],
      keys.map((k) => keyRow(signed, k, names)),
      'No API keys.',
    )}
<h3>Create an API key</h3><p class="hint">The key acts as you and may carry only scopes you hold.</p>${actionForm(
      signed,
      'admin.apiKeys.create',
      'Create key',
      {
        back: BACK,
        // The expiry is typed on the organization's clock; the action turns it into the instant.
        hidden: { _wallclock: 'expiresAt' },
        fields: html`${field('name', 'Name', { required: true, id: 'f-key-name', hint: 'What uses it, e.g. "bookkeeping export".' })}
<fieldset><legend>Scopes</legend>${['accounting:read', 'accounting:write', 'accounting:admin'].map(
          (s) =>
            html`<label class="choice"><input type="checkbox" name="scopes" value="${s}"${s === 'accounting:read' ? html` checked` : ''}> ${s}</label>`,
        )}</fieldset>
${field('expiresAt', `Expires (${zone})`, { type: 'datetime-local', id: 'f-key-expires', hint: 'Optional: from this time on the key is refused. Leave empty for a key that does not expire.' })}<p></p>`,
      },
    )}</section>
<section class="card" id="outbox"><h2>Mail outbox</h2>
<p>${['', ...OUTBOX].map((s) => html`<a href="${BACK}${s ? `?status=${s}` : ''}#outbox"${s === status ? html` aria-current="page"` : ''}>${s ? coded(s) : 'All'}</a> `)}</p>
<p class="hint">${
      services.config.smtpUrl
        ? 'Mail is sent through the configured SMTP server. Kept mail was stored without being sent, while no server was configured. Bodies are never shown here.'
        : 'No SMTP server is configured on this server: mail is kept here, not sent. Bodies are never shown here.'
    }</p>${table(
      ['Queued', 'What', 'To', 'Subject', 'State'],
      outbox.map(
        (
          m,
        ) => html`<tr><td>${when(m.created_at, zone)}</td><td>${str(m.kind)}</td><td>${(m.recipients as string[] | undefined)?.join(', ') ?? ''}</td><td>${str(m.subject)}</td>
<td>${badge(coded(str(m.status)), m.status === 'failed' ? 'bad' : m.status === 'sent' ? 'ok' : '')} ${Number(m.attempts) > 1 ? `${str(m.attempts)} attempts` : ''} ${str(m.last_error)}</td></tr>`,
      ),
      status ? `No ${status} mail.` : 'No mail yet.',
    )}${pager(BACK, status ? { status } : {}, offset, 20, outbox.length)}</section>`,
  };
};

function keyRow(signed: Signed, k: Row, names: ReadonlyMap<string, string>): Html {
  const zone = signed.viewer.timeZone;
  const revoke =
    k.status === 'active'
      ? actionForm(signed, 'admin.apiKeys.revoke', 'Revoke', {
          back: BACK,
          hidden: { id: str(k.id), expectedRevision: Number(k.revision) },
          style: 'danger',
          confirm: 'Revoke this key? Programs using it stop at once.',
        })
      : '';
  return html`<tr><td>${str(k.name) || '(unnamed)'}</td><td>${names.get(str(k.created_by)) ?? str(k.created_by)}</td><td>${(k.scopes as string[] | undefined)?.join(', ') ?? ''}</td>
<td>${badge(coded(str(k.status)), k.status === 'active' ? 'ok' : '')}</td><td>${k.expires_at ? when(k.expires_at, zone) : 'Never'}</td><td>${when(k.last_used_at, zone)}</td><td>${revoke}</td></tr>`;
}

function memberRow(signed: Signed, m: Row): Html {
  const hidden = { id: str(m.id), expectedRevision: Number(m.revision) };
  const who = str(m.name) || str(m.email);
  const self = m.id === signed.principal.memberId;
  const remove = actionForm(signed, 'admin.members.remove', 'Remove', {
    back: BACK,
    hidden,
    style: 'danger',
    inline: true,
    confirm: `Remove ${who}? This is final: their keys and sessions end at once, and they stay listed as removed so the audit log keeps naming them.`,
  });
  let actions: Html | string = '';
  if (self) actions = html`<span class="muted">you</span>`;
  else if (m.status === 'active') {
    const other = m.role === 'admin' ? 'finance' : 'admin';
    actions = html`${actionForm(signed, 'admin.members.update', `Make ${other}`, { back: BACK, hidden: { ...hidden, role: other }, style: 'secondary', inline: true })}
${actionForm(signed, 'admin.members.suspend', 'Suspend', { back: BACK, hidden, style: 'danger', inline: true, confirm: `Suspend ${who}? Their sessions and keys stop at once.` })}
${remove}`;
  } else if (m.status === 'suspended') {
    // Reinstating gives no key back: keys ended with the suspension (decision 155).
    actions = html`${actionForm(signed, 'admin.members.reinstate', 'Reinstate', { back: BACK, hidden, style: 'secondary', inline: true })}
${remove}`;
  }
  return html`<tr><td>${who}<br><span class="muted">${str(m.email)}</span></td><td>${coded(str(m.role))}</td><td>${badge(coded(str(m.status)), m.status === 'active' ? 'ok' : m.status === 'suspended' ? 'warn' : '')}</td>
<td>${actions}</td></tr>`;
}
