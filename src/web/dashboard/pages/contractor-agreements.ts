import { type Html, html, when } from '../../html.ts';
import { pager } from '../../layout.ts';
import { actionForm, actionOrRole, coded, field, intParam, type Row, rows, str } from '../components.ts';
import { callOperation, everyItem } from '../context.ts';
import { AGREEMENT_WORDS, type ContractorView, otherOffsets } from './contractor-area.ts';

const LIMIT = 20;

/**
 * Agreements sent to the contractor and where each stands (sent, signed by whom and when,
 * voided and why), the document or signed PDF to download, void with a reason; and Send
 * agreement from a template.
 */
export async function agreementsSection(view: ContractorView): Promise<Html> {
  const { services, signed, contractor, back } = view;
  const contractorId = str(contractor.id);
  const offset = intParam(view.query.agreementsOffset, 0);
  const agreements = rows(
    await callOperation(services, signed, 'contractors.agreements.list', {
      contractorId,
      limit: LIMIT,
      offset,
    }),
  );
  const templates = await everyItem(services, signed, 'contractors.templates.list', {});
  const zone = signed.viewer.timeZone;
  const state = (a: Row): Html =>
    a.status === 'signed'
      ? html`${coded('signed', AGREEMENT_WORDS)} by ${str(a.signed_name)} on ${when(a.signed_at, zone)}`
      : a.status === 'voided'
        ? html`${coded('voided', AGREEMENT_WORDS)} on ${when(a.voided_at, zone)}: ${str(a.void_reason)}`
        : coded(str(a.status), AGREEMENT_WORDS);
  const send = actionOrRole(signed, 'contractors.agreements.send', 'send an agreement', () =>
    templates.length === 0
      ? html`<p class="hint">No agreement template yet. <a href="/dashboard/contractors/templates">Add one</a> first.</p>`
      : actionForm(signed, 'contractors.agreements.send', 'Send agreement', {
          back,
          hidden: { contractorId },
          fields: html`<label for="send-template">Template</label><select id="send-template" name="templateId">${templates.map(
            (t) => html`<option value="${str(t.id)}">${str(t.name)}</option>`,
          )}</select>${field('title', 'Title the contractor sees (optional)', { id: 'send-title', hint: "The template's name when left empty." })}<p class="hint">The contractor reads and signs it in the portal.</p>`,
        }),
  );
  // A list, not a table: each agreement's download and void stay within a phone's width.
  return html`<section class="card"><h2>Agreements</h2>${
    agreements.length === 0
      ? html`<p class="empty">No agreement sent yet.</p>`
      : html`<ul class="items" aria-label="Agreements">${agreements.map(
          (a) =>
            html`<li><p><strong>${str(a.title)}</strong> · sent ${when(a.created_at, zone)}<br>${state(a)}</p><p><a href="/dashboard/contractors/agreements/${str(a.id)}/download">${
              a.status === 'signed' ? 'Download the signed PDF' : 'Download the document sent'
            }</a></p>${a.status === 'voided' ? '' : voidForm(view, a)}</li>`,
        )}</ul>`
  }${pager(back, otherOffsets(view.query, 'agreementsOffset'), offset, LIMIT, agreements.length, { key: 'agreementsOffset', label: 'Pages of agreements' })}
<h3>Send an agreement</h3>${send}<p class="hint"><a href="/dashboard/contractors/templates">Manage agreement templates</a></p></section>`;
}

function voidForm(view: ContractorView, a: Row): Html {
  const { signed, back } = view;
  return actionOrRole(signed, 'contractors.agreements.void', 'void an agreement', () =>
    actionForm(signed, 'contractors.agreements.void', 'Void', {
      back,
      hidden: { id: str(a.id), expectedRevision: Number(a.revision) },
      style: 'danger',
      confirm:
        a.status === 'signed'
          ? 'Void this signed agreement? It is no longer on file, and this cannot be undone.'
          : 'Void this agreement? It can no longer be signed, and this cannot be undone.',
      fields: html`<div class="actions"><div>${field('reason', 'Reason for voiding', { id: `void-${str(a.id)}`, required: true })}</div></div>`,
    }),
  );
}
