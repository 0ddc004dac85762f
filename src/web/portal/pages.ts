import type { Block } from '../../contractors/agreement-markdown.ts';
import type { Agreement } from '../../contractors/agreement-wire.ts';
import type { Hours } from '../../contractors/hours-wire.ts';
import type { Payout } from '../../contractors/payout-wire.ts';
import { newId } from '../../lib/ids.ts';
import { type Html, html, money, when } from '../html.ts';
import { table } from '../layout.ts';
import { markdownHtml } from './markdown.ts';

const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

function hoursLabel(h: Hours): Html {
  if (h.status === 'rejected') return html`rejected: ${h.rejection_reason ?? ''}`;
  return html`${h.status}`;
}

export function hoursBody(hours: readonly Hours[], csrf: string, today: string): Html {
  return html`<section class="card"><h2>Submit hours</h2>
<form method="post" action="/portal/hours">${csrfField(csrf)}
<input type="hidden" name="submissionKey" value="${newId()}">
<label for="workDate">Day worked</label>
<input id="workDate" name="workDate" type="date" required value="${today}">
<label for="hours">Hours</label>
<input id="hours" name="hours" type="text" inputmode="decimal" required pattern="[0-9]{1,2}([.,][0-9]{1,2})?" placeholder="7.25" aria-describedby="hours-hint">
<p class="hint" id="hours-hint">Above 0 and at most 24, up to two decimals, with a point or a comma: 7.5 or 7,5.</p>
<label for="description">What you did</label>
<input id="description" name="description" type="text" required maxlength="500">
<p><button type="submit">Submit hours</button></p></form></section>
<h2>Submitted hours</h2>
${table(
  ['Day', 'Hours', 'Description', 'Amount', 'Status'],
  hours.map(
    (h) =>
      html`<tr><td>${h.work_date}</td><td>${h.hours}</td><td>${h.description}</td><td>${money(h.amount_minor, h.currency)}</td><td>${hoursLabel(h)}</td></tr>`,
  ),
  'No hours submitted yet.',
)}`;
}

export function agreementsBody(agreements: readonly Agreement[], zone: string): Html {
  return table(
    ['Agreement', 'Sent', 'Status', ''],
    agreements.map(
      (a) =>
        html`<tr><td>${a.title}</td><td>${when(a.created_at, zone)}</td><td>${a.status}${a.signed_at ? html` (${when(a.signed_at, zone)})` : ''}</td>
<td><a href="/portal/agreements/${a.id}">${a.status === 'sent' ? 'Read and sign' : 'Open'}</a></td></tr>`,
    ),
    'No agreements yet.',
  );
}

/** What the page shows of the document: Markdown drawn, plain text as written, or nothing (a file). */
export type AgreementDocument =
  | { kind: 'markdown'; blocks: readonly Block[] }
  | { kind: 'text'; text: string }
  | { kind: 'file' };

function documentHtml(a: Agreement, document: AgreementDocument): Html {
  if (document.kind === 'file') {
    return html`<p>This agreement is a file (${a.file_name}); download it to read it before signing.</p>`;
  }
  const body =
    document.kind === 'markdown' ? markdownHtml(document.blocks) : html`<pre>${document.text}</pre>`;
  return html`<article class="agreement" aria-label="${a.title}">${body}</article>`;
}

/** The agreement: its state, the document, and only then the form that signs it (read first). */
export function agreementBody(
  a: Agreement,
  document: AgreementDocument | null,
  csrf: string,
  zone: string,
): Html {
  const download = html`<p><a href="/portal/agreements/${a.id}/download">Download ${a.status === 'signed' ? 'the signed PDF' : 'the document'}</a></p>`;
  const fingerprint = html`<p class="hint">Document SHA-256 <code>${a.document_sha256}</code></p>`;
  if (a.status === 'signed') {
    return html`<div class="notice" role="status">Signed by ${a.signed_name ?? ''} on ${when(a.signed_at, zone)}.</div>${fingerprint}${download}`;
  }
  if (a.status === 'voided') {
    return html`<div class="notice" role="status">This agreement was voided and can no longer be signed.</div>${fingerprint}${download}`;
  }
  const content = document ? documentHtml(a, document) : '';
  return html`${content}${fingerprint}${download}
<section class="card signing"><h2>Sign</h2><form method="post" action="/portal/agreements/${a.id}/sign">${csrfField(csrf)}
<input type="hidden" name="documentSha256" value="${a.document_sha256}">
<label for="fullName">Your full name</label>
<input id="fullName" name="fullName" type="text" required minlength="2" maxlength="300" autocomplete="name">
<label class="choice"><input id="consent" name="consent" type="checkbox" required> I have read this agreement, I agree to its terms, and I sign it electronically with my typed name.</label>
<p><button type="submit">Sign agreement</button></p></form></section>`;
}

export function paymentsBody(payouts: readonly Payout[]): Html {
  return table(
    ['Period', 'Amount', 'Status', 'Paid on', 'Reference'],
    payouts.map(
      (p) =>
        html`<tr><td>${p.period_start} to ${p.period_end}</td><td>${money(p.amount_minor, p.currency)}</td><td>${p.status}</td><td>${p.paid_on ?? '—'}</td><td>${p.reference ?? '—'}</td></tr>`,
    ),
    'No payments yet.',
  );
}

export function signInBody(notice: Html | '', next?: string): Html {
  return html`${notice}<section class="card"><form method="post" action="/portal/sign-in">${next ? html`<input type="hidden" name="next" value="${next}">` : ''}
<label for="email">Your e-mail address</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="320">
<p class="hint">We e-mail you a link that signs you in once. No password.</p>
<p><button type="submit">E-mail me a sign-in link</button></p></form></section>`;
}
