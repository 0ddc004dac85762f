import { type Html, html, money, when } from '../../html.ts';
import { table } from '../../layout.ts';
import { actionForm, actionOrRole, type Row, rows, str } from '../components.ts';
import { callOperation, type Signed } from '../context.ts';
import type { PageHandler } from '../routes.ts';

const ORIGINAL = '/dashboard/receipts/originals/';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The review before a consolidation: every current original side by side, the payment identity
 * the documents show, both entries and the transactions, a reason and "I reviewed the originals".
 * The confirmation sends back the preview's fingerprint and every revision shown here; if anything
 * changed meanwhile it is refused and this page comes back with the current preview.
 */
export const consolidationPage: PageHandler = async (services, signed, request) => {
  const receiptEntryId = str(request.query.receiptEntryId);
  const targetEntryId = str(request.query.targetEntryId);
  if (!UUID.test(receiptEntryId) || !UUID.test(targetEntryId)) {
    return {
      title: 'Review a consolidation',
      current: 'receipts',
      status: 400,
      body: html`<div class="error" role="alert"><p>Give both entries as ids (UUIDs): open it from a receipt's page.</p></div>`,
    };
  }
  const p = (await callOperation(services, signed, 'matching.receiptConsolidation.preview', {
    receiptEntryId,
    targetEntryId,
  })) as Row;
  const entry = async (ref: unknown) =>
    (await callOperation(services, signed, 'entries.get', { id: str((ref as Row).id) })) as Row;
  const receiptEntry = await entry(p.receipt_entry);
  const targetEntry = await entry(p.target_entry);
  const done = rows(receiptEntry, 'consolidations').find((c) => c.target_entry_id === targetEntryId);
  const transactions: Row[] = [];
  for (const t of rows(p, 'transactions'))
    transactions.push((await callOperation(services, signed, 'transactions.get', { id: str(t.id) })) as Row);
  const evidence = rows(p, 'original_evidence');
  const identity = (p.payment_identity ?? {}) as Row;
  const self = `/dashboard/consolidations?${new URLSearchParams({ receiptEntryId, targetEntryId }).toString()}`;
  const stale = request.query.stale !== undefined;
  const hidden: Record<string, string | number> = {
    receiptEntryId,
    expectedReceiptRevision: Number((p.receipt_entry as Row).revision),
    targetEntryId,
    expectedTargetRevision: Number((p.target_entry as Row).revision),
    mode: str(p.mode),
    expectedSourceFingerprint: str(p.source_fingerprint),
  };
  // Repeated fields: one JSON object per transaction, one id per reviewed original.
  const repeated = html`${rows(p, 'transactions').map(
    (t) =>
      html`<input type="hidden" name="transactions" value="${JSON.stringify({ id: t.id, expectedRevision: t.revision })}">`,
  )}${evidence.map((e) => html`<input type="hidden" name="reviewedOriginalEvidenceIds" value="${str(e.id)}">`)}`;
  return {
    title: 'Review a consolidation',
    current: 'receipts',
    body: html`${done ? result(signed, done, receiptEntry) : ''}${stale ? html`<div class="error" role="alert"><p><strong>The records or originals changed since you opened this review, so nothing was confirmed.</strong> The current preview is shown below: review the originals again before confirming.</p></div>` : ''}
<section class="card"><h2>Originals</h2><div class="side-by-side">${evidence.map(
      (
        e,
        i,
      ) => html`<figure><iframe class="original" src="${ORIGINAL}${str(e.id)}" title="Original ${i + 1} of ${evidence.length}"></iframe>
<figcaption><a href="${ORIGINAL}${str(e.id)}">Original ${i + 1}</a> · SHA-256 <code>${str(e.content_hash).slice(0, 16)}…</code></figcaption></figure>`,
    )}</div></section>
<div class="side-by-side"><section class="card"><h2>Payment identity</h2><dl class="facts"><dt>Mode</dt><dd>${str(p.mode) === 'same_order' ? 'same order' : 'provider card settlement'}</dd>
<dt>Method</dt><dd>${str(identity.method) || '—'}</dd><dt>Card</dt><dd>${identity.card_last_four ? `•••• ${str(identity.card_last_four)}` : '—'}</dd><dt>Provider</dt><dd>${str(identity.provider) || '—'}</dd></dl></section>
<section class="card"><h2>Entries</h2>${entryFacts('Receipt entry', receiptEntry)}${entryFacts('Consolidated into', targetEntry)}</section></div>
<section class="card"><h2>Transactions</h2>${table(
      ['Booked', 'Description', 'Amount'],
      transactions.map(
        (t) =>
          html`<tr><td>${str(t.booked_date)}</td><td>${str(t.description)}</td><td class="num">${money(t.amount_minor, t.currency)}</td></tr>`,
      ),
      'No transaction.',
    )}</section>
${done ? '' : confirmSection(signed, self, hidden, repeated)}`,
  };
};

/** What a confirmed consolidation recorded, in place of the form (decision 392). */
function result(signed: Signed, c: Row, receiptEntry: Row): Html {
  const ids = receiptEntry.receipt_ids;
  const receiptId = Array.isArray(ids) ? str(ids[0]) : '';
  // Stored as the actor (`member:<id>`).
  const by =
    str(c.confirmed_by).replace(/^member:/, '') === signed.principal.memberId ? 'you' : 'another member';
  return html`<section class="card" aria-labelledby="result-heading"><h2 id="result-heading">Consolidated</h2>
<div class="notice" role="status">These two entries are one purchase: confirmed ${when(c.confirmed_at, signed.viewer.timeZone)} by ${by}. Nothing is left to confirm here.</div>
<dl class="facts"><dt>Why</dt><dd>${str(c.mode) === 'same_order' ? 'same order' : 'provider card settlement'}</dd><dt>Reason given</dt><dd>${str(c.reason)}</dd></dl>
${receiptId ? html`<p><a href="/dashboard/receipts/${receiptId}">Back to the receipt</a></p>` : ''}</section>`;
}

function confirmSection(
  signed: Signed,
  self: string,
  hidden: Record<string, string | number>,
  repeated: Html,
): Html {
  return html`<section class="card"><h2>Confirm</h2><p class="hint">Adds the receipt to the entry and remembers the alias; amounts, allocations, tax and review status stay as they are.</p>
${actionOrRole(signed, 'matching.receiptConsolidation.confirm', 'confirm a consolidation', () =>
  actionForm(signed, 'matching.receiptConsolidation.confirm', 'Confirm consolidation', {
    back: self,
    hidden,
    fields: html`${repeated}<label for="f-reason">Reason</label><p class="hint" id="f-reason-hint">10 to 1000 characters, kept in the record's history.</p>
<textarea id="f-reason" name="reason" rows="3" minlength="10" maxlength="1000" required aria-describedby="f-reason-hint"></textarea>
<p><label><input type="checkbox" name="originalsReviewed" value="true"> I reviewed the originals above</label></p>`,
  }),
)}</section>`;
}

function entryFacts(label: string, e: Row): Html {
  return html`<h3>${label}</h3><dl class="facts"><dt>Date</dt><dd>${str(e.date)}</dd><dt>Description</dt><dd>${str(e.description)}</dd>
<dt>Amount</dt><dd>${money(e.amount_minor, e.currency)}</dd><dt>Version</dt><dd>${str(e.revision)}</dd></dl>`;
}
