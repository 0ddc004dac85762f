import { iso4217MinorUnit } from '../../../lib/currencies.ts';
import type { Services } from '../../../services.ts';
import { type Html, html, money, when } from '../../html.ts';
import { table } from '../../layout.ts';
import { actionForm, actionOrRole, type Row, rows, str } from '../components.ts';
import { callOperation, everyItem, type Signed } from '../context.ts';
import { liveRegion } from '../live-region.ts';
import type { PageHandler } from '../routes.ts';
import { originalViewer, readValues } from './receipt-document.ts';
import { READING, receiptLive, stateBadge } from './receipt-states.ts';

/** One receipt: its original beside the extracted fields, its suggestions, ignore/restore. */
export const receiptPage: PageHandler = (services, signed, request) =>
  receiptView(services, signed, str(request.params.id), {
    search: str(request.query.search).trim().slice(0, 200),
    duplicate: request.query.duplicate === '1',
  });

interface ViewOptions {
  /** The attach-by-hand search. */
  search?: string;
  /** The upload found these bytes already in the inbox (results.ts). */
  duplicate?: boolean;
}

async function receiptView(services: Services, signed: Signed, id: string, options: ViewOptions = {}) {
  const { search = '', duplicate = false } = options;
  // A refused correction comes back in place (refused.ts), whatever the receipt's state now.
  const refused = signed.refused?.operation === 'inbox.confirm';
  const r = (await callOperation(services, signed, 'inbox.get', { id })) as Row;
  const back = `/dashboard/receipts/${id}`;
  const suggestions = rows(
    await callOperation(services, signed, 'matching.suggestions.list', { receiptId: id, limit: 20 }),
  );
  const reasons = Array.isArray(r.review_reasons) ? (r.review_reasons as unknown[]).map(String) : [];
  const entryId = str(r.entry_id);
  const targets = entryId
    ? rows(
        await callOperation(services, signed, 'matching.receiptConsolidation.candidates', {
          receiptEntryId: entryId,
        }),
      )
    : [];
  const failure = r.failure as { code?: string; message?: string } | null;
  // What each suggestion and the match point at, as a person recognises a charge: date, amount,
  // account and card, the bank's text (transactions.get; one read per row, at most 20).
  const accounts = await everyItem(services, signed, 'accounts.list', {});
  const cards = await everyItem(services, signed, 'cards.list', {});
  const charge = async (transactionId: unknown): Promise<Row | undefined> =>
    typeof transactionId === 'string' && transactionId
      ? ((await callOperation(services, signed, 'transactions.get', { id: transactionId })) as Row)
      : undefined;
  // Declined pairs stay visible while the receipt waits, so a decline can be undone (decision 391).
  const declined = ATTACHABLE.has(str(r.state))
    ? rows(
        await callOperation(services, signed, 'matching.suggestions.list', {
          receiptId: id,
          state: 'declined',
          limit: 20,
        }),
      )
    : [];
  const charges = await Promise.all(suggestions.map((s) => charge(s.transaction_id)));
  const declinedCharges = await Promise.all(declined.map((s) => charge(s.transaction_id)));
  const matched = await charge(r.transaction_id);
  const describe = (t: Row | undefined): Html => (t ? chargeSummary(t, accounts, cards) : html`—`);
  return {
    title: str(r.merchant) || str(r.file_name),
    current: 'receipts',
    ...(READING.has(str(r.state)) ? { refreshSeconds: 3 } : {}),
    body: html`${
      duplicate
        ? html`<div class="notice" role="status">This file was already in the inbox (received ${when(r.created_at, signed.viewer.timeZone)}); nothing new was added.</div>`
        : ''
    }${
      READING.has(str(r.state))
        ? html`<section class="card">${liveRegion(`/dashboard/live/receipts/${id}`, back, receiptLive(r), 'Reading the receipt')}</section>`
        : ''
    }<div class="side-by-side"><section class="card"><h2>Original</h2>${originalViewer(r, `Original of ${str(r.file_name)}`)}</section>
<section class="card"><h2>Read from it</h2><dl class="facts"><dt>State</dt><dd>${stateBadge(str(r.state))}</dd><dt>Kind</dt><dd>${KINDS[str(r.kind)] ?? (str(r.kind) || '—')}</dd>
<dt>Merchant</dt><dd>${str(r.merchant) || '—'}</dd><dt>Date</dt><dd>${str(r.date) || '—'}</dd><dt>Total</dt><dd>${money(r.total_minor, r.currency)}</dd>
<dt>Card</dt><dd>${r.card_last_four ? `•••• ${str(r.card_last_four)}` : '—'}</dd><dt>Source</dt><dd>${str(r.source)}</dd></dl>
<details${r.state === 'needs_review' ? html` open` : ''}><summary>Everything read from it, with how sure</summary>${readValues((r.fields as Row | null) ?? null)}</details>
${reasons.length ? html`<p><strong>To review:</strong> ${reasons.map((reason) => REASONS[reason] ?? reason.replace(/_/g, ' ')).join('; ')}</p>` : ''}
${failure ? html`<div class="error" role="alert"><p>${str(failure.message)}</p><p class="hint">Error code <code>${str(failure.code)}</code></p></div>` : ''}
${r.state === 'needs_review' || r.state === 'ready' || refused ? correctionCard(signed, r, back) : ''}
${
  r.state === 'ignored'
    ? actionForm(signed, 'inbox.restore', 'Restore', {
        back,
        hidden: { id, expectedRevision: Number(r.revision) },
        style: 'secondary',
      })
    : actionForm(signed, 'inbox.ignore', 'Ignore', {
        back,
        hidden: { id, expectedRevision: Number(r.revision) },
        style: 'secondary',
      })
}
${entryId ? consolidationStart(entryId, targets) : ''}</section></div>
${
  matched
    ? html`<section class="card"><h2>Matched to</h2><p>${describe(matched)}</p>${actionForm(
        signed,
        'matching.detach',
        'Unmatch',
        {
          back,
          hidden: { receiptId: id, expectedRevision: Number(r.revision) },
          style: 'secondary',
          confirm: 'Unmatch this receipt? The transaction asks for a receipt again.',
        },
      )}</section>`
    : ''
}
<section class="card"><h2>Suggested transactions</h2>${table(
      ['Transaction', 'Score', 'Why', ''],
      suggestions.map((s, i) => suggestionRow(signed, s, describe(charges[i]), back)),
      'No open suggestion for this receipt.',
    )}</section>
${
  declined.length
    ? html`<section class="card"><h2>Declined suggestions</h2><p class="hint">Not suggested again unless you undo the decline.</p>${table(
        ['Transaction', 'Score', ''],
        declined.map((s, i) => declinedRow(signed, s, describe(declinedCharges[i]), back)),
        '',
      )}</section>`
    : ''
}
${matched || !ATTACHABLE.has(str(r.state)) ? '' : await attachCard(services, signed, r, back, search, accounts, cards)}`,
  };
}

/** States in which a receipt can be matched by hand (matching.attach). */
const ATTACHABLE = new Set(['ready', 'needs_review']);

/**
 * Search the open transactions and attach one by hand when no suggestion is right: a GET search
 * on this page (transactions.list `search`, unmatched only), each hit with an Attach button.
 */
async function attachCard(
  services: Services,
  signed: Signed,
  r: Row,
  back: string,
  search: string,
  accounts: readonly Row[],
  cards: readonly Row[],
): Promise<Html> {
  const hits = search
    ? rows(
        await callOperation(services, signed, 'transactions.list', {
          search,
          status: 'unmatched',
          limit: 10,
        }),
      )
    : [];
  const results = search
    ? table(
        ['Transaction', ''],
        hits.map(
          (t) =>
            html`<tr><td>${chargeSummary(t, accounts, cards)}</td><td>${actionOrRole(
              signed,
              'matching.attach',
              'attach a transaction',
              () =>
                actionForm(signed, 'matching.attach', 'Attach', {
                  back,
                  hidden: {
                    receiptId: str(r.id),
                    expectedReceiptRevision: Number(r.revision),
                    transactionId: str(t.id),
                    expectedTransactionRevision: Number(t.revision),
                  },
                  inline: true,
                }),
            )}</td></tr>`,
        ),
        `No open transaction matches “${search}”.`,
      )
    : '';
  return html`<section class="card" id="attach"><h2>Attach a transaction by hand</h2>
<form method="get" action="${back}#attach" role="search"><label for="f-attach-search">Search open transactions</label><p class="hint" id="f-attach-search-hint">Words from the bank's text, the merchant or the counterparty.</p>
<input id="f-attach-search" name="search" type="search" value="${search}" maxlength="200" aria-describedby="f-attach-search-hint"> <button class="secondary" type="submit">Search</button></form>${results}</section>`;
}

function suggestionRow(signed: Signed, s: Row, transaction: Html, back: string): Html {
  const hidden = { id: str(s.id), expectedRevision: Number(s.revision) };
  const reasons = Array.isArray(s.reasons) ? (s.reasons as unknown[]).map(String).join('; ') : '';
  return html`<tr><td>${transaction}</td><td class="num">${str(s.score)}</td><td>${reasons}${s.exact_amount ? ' · exact amount' : ''}${s.same_card ? ' · same card' : ''}</td>
<td>${actionOrRole(signed, 'matching.suggestions.confirm', 'confirm a match', () =>
    actionForm(signed, 'matching.suggestions.confirm', 'Confirm match', { back, hidden, inline: true }),
  )}
${actionForm(signed, 'matching.suggestions.decline', 'Decline', {
  back,
  hidden,
  style: 'secondary',
  inline: true,
  confirm:
    'Decline this suggestion? This transaction is not suggested for this receipt again unless you undo it.',
})}</td></tr>`;
}

function declinedRow(signed: Signed, s: Row, transaction: Html, back: string): Html {
  return html`<tr><td>${transaction}</td><td class="num">${str(s.score)}</td><td>${actionOrRole(
    signed,
    'matching.suggestions.reopen',
    'undo a decline',
    () =>
      actionForm(signed, 'matching.suggestions.reopen', 'Suggest again', {
        back,
        hidden: { id: str(s.id), expectedRevision: Number(s.revision) },
        style: 'secondary',
        inline: true,
      }),
  )}</td></tr>`;
}

/** A charge as a person recognises it: date, amount, account and card, and the bank's own text. */
function chargeSummary(t: Row, accounts: readonly Row[], cards: readonly Row[]): Html {
  const account = str(accounts.find((a) => a.id === t.account_id)?.name) || 'account';
  const card = cards.find((c) => c.id === t.card_id);
  return html`<strong>${str(t.booked_date)} · ${money(t.amount_minor, t.currency)}</strong><br>${account}${
    card ? ` · card •••• ${str(card.last_four)}` : ''
  }<br><span class="muted">${str(t.description)}${t.counterparty_name ? ` · ${str(t.counterparty_name)}` : ''}</span>`;
}

/** Labels for what the API names by code (inbox items' kind and review reasons). */
const KINDS: Record<string, string> = {
  einvoice_ubl: 'E-invoice (UBL)',
  einvoice_cii: 'E-invoice (CII)',
  facturx: 'PDF with an e-invoice (Factur-X, ZUGFeRD)',
  pdf_text: 'PDF (read from its text)',
  image_ocr: 'Photo or scan (read by OCR)',
};
const REASONS: Record<string, string> = {
  ocr_unavailable: 'OCR is not installed on this server yet (it is read once it is)',
  reader_unavailable: 'the PDF reader is not installed on this server yet (it is read once it is)',
  missing_total: 'no total found',
  missing_date: 'no date found',
  missing_merchant: 'no merchant found',
  missing_currency: 'no currency found',
  totals_inconsistent: 'net, tax and total do not add up',
  low_confidence: 'a value was read with low confidence',
  no_text: 'no text found in the document',
  total_uncertain: 'the total was read but not surely',
  date_uncertain: 'the date was read but not surely',
  currency_uncertain: 'the currency was guessed (a $ or similar sign with no country)',
  merchant_uncertain: 'the merchant was guessed from a heading',
  implausible_date: 'the date read lies too far in the past or future, so it was not kept',
};

/**
 * Where to consolidate this receipt's entry: the entries the preview would accept, nearest in date
 * first (matching.receiptConsolidation.candidates), or an entry id typed in.
 */
function consolidationStart(receiptEntryId: string, targets: readonly Row[]): Html {
  const choices = targets.length
    ? html`<fieldset><legend>Consolidate into</legend>${targets.map(
        (
          t,
          i,
        ) => html`<label class="choice"><input type="radio" name="targetEntryId" value="${str(t.entry_id)}"${i === 0 ? html` checked` : ''}>
${str(t.date)} · ${str(t.description)} · ${money(t.amount_minor, t.currency)} <span class="muted">(${str(t.mode) === 'same_order' ? 'same order' : 'settled by card'})</span></label>`,
      )}</fieldset>`
    : html`<p class="hint" id="f-target-hint">No entry within 31 days documents the same purchase. To consolidate anyway, give the id of the entry of the order or card charge this receipt belongs to.</p>
<label for="f-target">Consolidate into entry (id)</label><input id="f-target" name="targetEntryId" type="text" required aria-describedby="f-target-hint">`;
  return html`<form method="get" action="/dashboard/consolidations"><input type="hidden" name="receiptEntryId" value="${receiptEntryId}">
${choices} <button class="secondary" type="submit">Review consolidation</button></form>`;
}

/** Fields a person can correct (inbox.confirm), each with its label, input type and hint. */
const CORRECTABLE: ReadonlyArray<{ name: string; label: string; type: string; hint: string; mode?: string }> =
  [
    { name: 'merchant', label: 'Merchant', type: 'text', hint: '1 to 300 characters.' },
    { name: 'date', label: 'Date on the receipt', type: 'date', hint: 'The date printed on the document.' },
    {
      name: 'totalMinor',
      label: 'Total to pay',
      type: 'text',
      mode: 'decimal',
      hint: 'As printed, for example 23,80 or 1,234.56; negative for a refund or credit note.',
    },
    { name: 'currency', label: 'Currency', type: 'text', hint: 'Three letters, for example EUR, USD, GBP.' },
  ];

/**
 * Confirm or correct what was read (inbox.confirm), beside the original: the four values a receipt
 * entry needs, filled with what was read. Until a person confirms them, a read that needs review
 * posts nothing to the books (decision 333); confirming posts the entry and runs matching again.
 * The total is typed as people write it ("23,80" or "23.80") in the currency beside it
 * (`_amounts`, decision 387). After a refusal the typed values stay and the message stands next
 * to the field it names (or above the form).
 */
function correctionCard(signed: Signed, r: Row, back: string): Html {
  const currency = str(r.currency);
  const read: Record<string, string> = {
    merchant: str(r.merchant),
    date: str(r.date),
    totalMinor:
      typeof r.total_minor === 'string'
        ? money(r.total_minor, undefined, iso4217MinorUnit(currency) ?? 2)
        : '',
    currency,
  };
  // After a refusal, actionForm puts back what was typed and the message beside its field.
  const inputs = CORRECTABLE.map(
    (
      f,
    ) => html`<label for="f-fix-${f.name}">${f.label}</label><p class="hint" id="f-fix-${f.name}-hint">${f.hint}</p>
<input id="f-fix-${f.name}" name="${f.name}" type="${f.type}"${f.mode ? html` inputmode="${f.mode}"` : ''} required value="${read[f.name] ?? ''}" aria-describedby="f-fix-${f.name}-hint">`,
  );
  const needsReview = str(r.state) === 'needs_review';
  return html`<details class="confirm" id="correct"${needsReview ? html` open` : ''}><summary>${needsReview ? 'Confirm or correct these values' : 'Correct these values'}</summary>
<p class="hint">${needsReview ? 'Nothing from this receipt reaches the books until you confirm it.' : 'The receipt entry is updated with these values and matching runs again.'}</p>
${actionOrRole(signed, 'inbox.confirm', 'confirm a receipt', () =>
  actionForm(
    signed,
    'inbox.confirm',
    needsReview ? 'Confirm and post to the books' : 'Save the corrections',
    {
      back,
      hidden: {
        id: str(r.id),
        expectedRevision: Number(r.revision),
        _amounts: 'totalMinor:currency',
      },
      fields: html`${inputs}<p></p>`,
    },
  ),
)}</details>`;
}
