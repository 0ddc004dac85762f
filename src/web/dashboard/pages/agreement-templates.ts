import { html, when } from '../../html.ts';
import { pager, table } from '../../layout.ts';
import { actionForm, actionOrRole, coded, field, intParam, type Row, rows, str } from '../components.ts';
import { callOperation } from '../context.ts';
import type { PageHandler } from '../routes.ts';
import { areaNav, TEMPLATE_WORDS } from './contractor-area.ts';

const BACK = '/dashboard/contractors/templates';
const LIMIT = 20;
const UPLOAD_TYPES =
  '.pdf,.docx,.doc,.txt,.md,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document,application/msword,text/plain,text/markdown';

/** A size in bytes for people: `12.3 KiB`. */
function size(bytes: unknown): string {
  const n = Number(bytes);
  if (!Number.isFinite(n)) return '—';
  if (n < 1024) return `${n} bytes`;
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** Agreement templates: the list (newest first), upload an original, write a Markdown draft. */
export const agreementTemplatesPage: PageHandler = async (services, signed, request) => {
  const offset = intParam(request.query.offset, 0);
  const templates = rows(
    await callOperation(services, signed, 'contractors.templates.list', { limit: LIMIT, offset }),
  );
  const zone = signed.viewer.timeZone;
  return {
    title: 'Agreement templates',
    current: 'contractors',
    body: html`${areaNav('templates')}<section class="card"><h2>Templates</h2>${table(
      ['Name', 'Kind', 'File', 'Added', ''],
      templates.map(
        (t: Row) =>
          html`<tr><td><a href="${BACK}/${str(t.id)}">${str(t.name)}</a></td><td>${coded(str(t.kind), TEMPLATE_WORDS)}</td><td>${str(t.file_name) || 'Markdown'} (${size(t.size_bytes)})</td><td>${when(t.created_at, zone)}</td><td><a href="${BACK}/${str(t.id)}/download">Download</a></td></tr>`,
      ),
      'No agreement template yet. Upload your agreement or write one below, then send it from a contractor’s page.',
      'Agreement templates',
    )}${pager(BACK, {}, offset, LIMIT, templates.length)}</section>
<div class="grid"><section class="card"><h2>Upload a template</h2>${actionOrRole(
      signed,
      'contractors.templates.upload',
      'upload a template',
      () =>
        actionForm(signed, 'contractors.templates.upload', 'Upload template', {
          back: BACK,
          hidden: { fileName: '', mediaType: '', contentBase64: '' },
          fields: html`${field('name', 'Name', { id: 'upload-name', required: true, hint: 'As members will choose it, e.g. “Master services agreement”.' })}
<label for="upload-file">File</label><p class="hint" id="upload-file-hint">PDF, Word (.docx, .doc), text or Markdown, up to 5 MiB. Sent to contractors exactly as uploaded.</p>
<input id="upload-file" type="file" accept="${UPLOAD_TYPES}" data-base64-into="contentBase64" aria-describedby="upload-file-hint" required>
<p><progress data-upload-progress max="100" value="0" hidden></progress> <span data-upload-status role="status"></span></p>
<noscript><p class="hint">Uploading needs JavaScript; without it, write a draft here or use the API (contractors.templates.upload).</p></noscript>`,
        }),
    )}</section>
<section class="card"><h2>Write a draft</h2>${actionOrRole(
      signed,
      'contractors.templates.createDraft',
      'write a template',
      () =>
        actionForm(signed, 'contractors.templates.createDraft', 'Save draft', {
          back: BACK,
          fields: html`${field('name', 'Name', { id: 'draft-name', required: true })}
<label for="draft-markdown">Text (Markdown)</label><p class="hint" id="draft-markdown-hint">Filled in when sent: {{contractor.displayName}}, {{contractor.legalName}}, {{contractor.email}}, {{contractor.country}}, {{role.name}}, {{organization.name}}, {{date}}; any other {{…}} is refused.</p>
<textarea id="draft-markdown" name="markdown" rows="10" required aria-describedby="draft-markdown-hint"></textarea><p></p>`,
        }),
    )}</section></div>`,
  };
};

/** One template: what it is, a draft's text, download. Sending starts from a contractor's page. */
export const agreementTemplatePage: PageHandler = async (services, signed, request) => {
  const id = str(request.params.id);
  const t = (await callOperation(services, signed, 'contractors.templates.get', { id })) as Row;
  return {
    title: str(t.name),
    current: 'contractors',
    body: html`${areaNav('templates')}<section class="card"><dl class="facts"><dt>Kind</dt><dd>${coded(str(t.kind), TEMPLATE_WORDS)}</dd>
<dt>File</dt><dd>${str(t.file_name) || 'Markdown'} (${size(t.size_bytes)})</dd><dt>Added</dt><dd>${when(t.created_at, signed.viewer.timeZone)}</dd></dl>
<p><a href="${BACK}/${id}/download">Download</a> · To send it, open a contractor in the <a href="/dashboard/contractors">directory</a> and choose it under Agreements.</p></section>
${typeof t.markdown === 'string' ? html`<section class="card"><h2>Text</h2><pre class="markdown" tabindex="0">${t.markdown}</pre></section>` : ''}`,
  };
};
