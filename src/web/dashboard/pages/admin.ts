import { html, when } from '../../html.ts';
import { pager, table } from '../../layout.ts';
import { actionForm, badge, coded, field, intParam, type Row, rows, str } from '../components.ts';
import { callOperation, type Signed } from '../context.ts';
import type { PageHandler } from '../routes.ts';

const BACK = '/dashboard/admin';
const OUTBOX = ['pending', 'sent', 'kept', 'failed'];

/** Administration: members (add, change role, suspend) and API keys (create, shown once; revoke). */
export const adminPage: PageHandler = async (services, signed, request) => {
  const members = rows(await callOperation(services, signed, 'admin.members.list', { limit: 100 }));
  const keys = rows(await callOperation(services, signed, 'admin.apiKeys.list', { limit: 100 }));
  const offset = intParam(request.query.offset, 0);
  const status = OUTBOX.includes(str(request.query.status)) ? str(request.query.status) : '';
  const outbox = rows(
    await callOperation(services, signed, 'admin.mailOutbox.list', {
      limit: 20,
      offset,
      ...(status ? { status } : {}),
    }),
  );
  return {
    title: 'Administration',
    current: 'admin',
    body: html`<section class="card"><h2>Members</h2>${table(
      ['Member', 'Role', 'Status', ''],
      members.map((m) => memberRow(signed, m)),
      'No members.',
    )}
<h3>Add a member</h3>${actionForm(signed, 'admin.members.add', 'Add member', {
      back: BACK,
      fields: html`${field('email', 'E-mail', { type: 'email', required: true })}${field('name', 'Name')}
<label for="f-role">Role</label><select id="f-role" name="role"><option>finance</option><option>admin</option></select><p></p>`,
    })}</section>
<section class="card"><h2>API keys</h2>${table(
      ['Name', 'Scopes', 'Status', 'Last used', ''],
      keys.map(
        (
          k,
        ) => html`<tr><td>${str(k.name) || '(unnamed)'}</td><td>${(k.scopes as string[] | undefined)?.join(', ') ?? ''}</td><td>${coded(str(k.status))}</td><td>${when(k.last_used_at, signed.viewer.timeZone)}</td>
<td>${k.status === 'active' ? actionForm(signed, 'admin.apiKeys.revoke', 'Revoke', { back: BACK, hidden: { id: str(k.id), expectedRevision: Number(k.revision) }, style: 'danger', confirm: 'Revoke this key? Programs using it stop at once.' }) : ''}</td></tr>`,
      ),
      'No API keys.',
    )}
<h3>Create an API key</h3>${actionForm(signed, 'admin.apiKeys.create', 'Create key', {
      back: BACK,
      fields: html`${field('name', 'Name', { required: true, hint: 'What uses it, e.g. "bookkeeping export".' })}
<fieldset><legend>Scopes</legend>${['accounting:read', 'accounting:write', 'accounting:admin'].map(
        (s) =>
          html`<label><input type="checkbox" name="scopes" value="${s}"${s === 'accounting:read' ? html` checked` : ''}> ${s}</label>`,
      )}</fieldset><p></p>`,
    })}</section>
<section class="card" id="outbox"><h2>Mail outbox</h2>
<p>${['', ...OUTBOX].map((s) => html`<a href="${BACK}${s ? `?status=${s}` : ''}#outbox"${s === status ? html` aria-current="page"` : ''}>${s || 'all'}</a> `)}</p>
<p class="hint">Kept mail was stored without being sent (no SMTP server configured); bodies are never shown here.</p>${table(
      ['Queued', 'What', 'To', 'Subject', 'State'],
      outbox.map(
        (
          m,
        ) => html`<tr><td>${when(m.created_at, signed.viewer.timeZone)}</td><td>${str(m.kind)}</td><td>${(m.recipients as string[] | undefined)?.join(', ') ?? ''}</td><td>${str(m.subject)}</td>
<td>${badge(coded(str(m.status)), m.status === 'failed' ? 'bad' : m.status === 'sent' ? 'ok' : '')} ${Number(m.attempts) > 1 ? `${str(m.attempts)} attempts` : ''} ${str(m.last_error)}</td></tr>`,
      ),
      status ? `No ${status} mail.` : 'No mail yet.',
    )}${pager(BACK, status ? { status } : {}, offset, 20, outbox.length)}</section>`,
  };
};

function memberRow(signed: Signed, m: Row) {
  const hidden = { id: str(m.id), expectedRevision: Number(m.revision) };
  const other = m.role === 'admin' ? 'finance' : 'admin';
  const self = m.id === signed.principal.memberId;
  return html`<tr><td>${str(m.name) || str(m.email)}<br><span class="muted">${str(m.email)}</span></td><td>${coded(str(m.role))}</td><td>${coded(str(m.status))}</td>
<td>${
    m.status === 'active' && !self
      ? html`${actionForm(signed, 'admin.members.update', `Make ${other}`, { back: BACK, hidden: { ...hidden, role: other }, style: 'secondary', inline: true })}
${actionForm(signed, 'admin.members.suspend', 'Suspend', { back: BACK, hidden, style: 'danger', inline: true, confirm: 'Suspend this member? Their sessions and keys stop at once.' })}`
      : self
        ? html`<span class="muted">you</span>`
        : ''
  }</td></tr>`;
}
