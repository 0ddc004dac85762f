import { iso4217MinorUnit } from '../../../lib/currencies.ts';
import { type Html, html, money } from '../../html.ts';
import { badge, coded, type Row, str } from '../components.ts';

// What a member reviews beside an original: the document as a person reads it (an e-invoice as an
// invoice, not XML) and every value read from it with how sure the reader was. Everything comes
// from the item's stored `fields` (inbox.get): the file itself was parsed once, in the extraction
// sandbox, and is never parsed again to draw a page.

const ORIGINAL = '/dashboard/receipts/originals/';

/** One stored field: `{ value, confidence, source }` (src/receipts/extraction/types.ts). */
interface StoredField {
  value: unknown;
  confidence?: number;
}

const asField = (value: unknown): StoredField | undefined =>
  value && typeof value === 'object' && 'value' in value ? (value as StoredField) : undefined;

const fieldList = (value: unknown): StoredField[] =>
  Array.isArray(value) ? value.map(asField).filter((f): f is StoredField => f !== undefined) : [];

/** Minor units in the document's currency, with that currency's own decimals (JPY 0, BHD 3). */
function amount(minor: unknown, currency: string): string {
  const text = typeof minor === 'bigint' || typeof minor === 'number' ? String(minor) : minor;
  return money(text, currency || undefined, iso4217MinorUnit(currency) ?? 2);
}

/**
 * How sure the reader was, in words a person can weigh: e-invoice values are certain, text and OCR
 * heuristics less so. The number itself stays in the title for those who want it.
 */
export function sureness(confidence: unknown): Html {
  if (typeof confidence !== 'number') return html``;
  const percent = Math.round(confidence * 100);
  const [word, tone] =
    confidence >= 0.9
      ? (['sure', 'ok'] as const)
      : confidence >= 0.6
        ? (['likely', ''] as const)
        : (['unsure', 'warn'] as const);
  return html` <span title="Read with ${percent}% confidence">${badge(word, tone)}</span>`;
}

const FIELD_LABELS: ReadonlyArray<readonly [string, string, 'text' | 'money' | 'date' | 'period']> = [
  ['merchant', 'Seller', 'text'],
  ['merchantTaxId', 'Seller VAT or tax number', 'text'],
  ['buyer', 'Buyer', 'text'],
  ['documentNumber', 'Document number', 'text'],
  ['orderNumber', 'Order number', 'text'],
  ['date', 'Date', 'date'],
  ['dueDate', 'Due date', 'date'],
  ['servicePeriod', 'Service period', 'period'],
  ['currency', 'Currency', 'text'],
  ['netMinor', 'Net', 'money'],
  ['taxMinor', 'Tax', 'money'],
  ['tipMinor', 'Tip', 'money'],
  ['totalMinor', 'Total', 'money'],
  ['amountDueMinor', 'Amount due', 'money'],
  ['paymentMethod', 'Paid by', 'text'],
  ['paymentTerms', 'Payment terms', 'text'],
  ['cardBrand', 'Card', 'text'],
  ['cardLastFour', 'Card number ends', 'text'],
];

const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  invoice: 'Invoice',
  credit_note: 'Credit note',
  receipt: 'Receipt',
};

/** EN 16931 VAT category codes (UNCL 5305 subset), in words; the code stays in the title. */
const VAT_CATEGORIES: Readonly<Record<string, string>> = {
  S: 'Standard rate',
  Z: 'Zero rated',
  E: 'Exempt',
  AE: 'Reverse charge',
  K: 'Intra-EU supply',
  G: 'Export outside the EU',
  O: 'Outside the scope of VAT',
  L: 'Canary Islands tax',
  M: 'Ceuta and Melilla tax',
};

const PAYMENT_METHODS: Readonly<Record<string, string>> = {
  card: 'card',
  cash: 'cash',
  credit_transfer: 'bank transfer',
  direct_debit: 'direct debit',
  other: 'other means',
};

/** A service period as read ({ start, end }, ISO dates): "2026-10-01 to 2026-10-31". */
function periodText(value: unknown): string {
  const v = value as { start?: unknown; end?: unknown } | null;
  return v && typeof v === 'object' && v.start && v.end ? `${str(v.start)} to ${str(v.end)}` : '';
}

function shown(
  key: string,
  kind: 'text' | 'money' | 'date' | 'period',
  value: unknown,
  currency: string,
): string {
  if (kind === 'money') return amount(value, currency);
  if (kind === 'period') return periodText(value);
  if (key === 'paymentMethod') return PAYMENT_METHODS[str(value)] ?? str(value);
  if (key === 'cardLastFour') return `•••• ${str(value)}`;
  return str(value);
}

/** Every value read from the document, each with how sure the reader was. */
export function readValues(fields: Row | null): Html {
  if (!fields) return html`<p class="muted">Nothing was read from this file yet.</p>`;
  const currency = str(asField(fields.currency)?.value);
  const present = FIELD_LABELS.flatMap(([key, label, kind]) => {
    const field = asField(fields[key]);
    return field && field.value !== null && field.value !== '' ? [{ key, label, kind, field }] : [];
  });
  if (present.length === 0) return html`<p class="muted">No value could be read from this file.</p>`;
  return html`<dl class="facts">${present.map(
    ({ key, label, kind, field }) =>
      html`<dt>${label}</dt><dd>${shown(key, kind, field.value, currency)}${sureness(field.confidence)}</dd>`,
  )}</dl>`;
}

/**
 * An invoice or receipt drawn as a person reads it: who sold to whom, the lines, the VAT
 * breakdown, the totals and the terms. Shown for e-invoices (where the XML is the original) and
 * for any read that found lines or tax rates.
 */
export function readableDocument(fields: Row | null): Html {
  if (!fields) return html``;
  const value = (key: string): unknown => asField(fields[key])?.value;
  const currency = str(value('currency'));
  const lines = fieldList(fields.lineItems).map((f) => f.value as Row);
  const taxes = fieldList(fields.taxLines).map((f) => f.value as Row);
  const title = DOCUMENT_TYPES[str(value('documentType'))] ?? 'Document';
  const number = str(value('documentNumber'));
  const parties = html`<div class="parties"><div><h4>From</h4><p>${str(value('merchant')) || '—'}${
    value('merchantTaxId') ? html`<br><span class="muted">VAT ${str(value('merchantTaxId'))}</span>` : ''
  }</p></div>${value('buyer') ? html`<div><h4>To</h4><p>${str(value('buyer'))}</p></div>` : ''}</div>`;
  const dates = html`<p>${value('date') ? html`Issued ${str(value('date'))}` : 'No issue date'}${
    value('dueDate') ? html` · due ${str(value('dueDate'))}` : ''
  }${periodText(value('servicePeriod')) ? html` · service period ${periodText(value('servicePeriod'))}` : ''}${
    value('orderNumber') ? html` · order ${str(value('orderNumber'))}` : ''
  }</p>`;
  const lineTable = lines.length
    ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Lines"><table><caption class="muted">Lines</caption>
<thead><tr><th scope="col">Description</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">VAT</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>${lines.map(
        (line) =>
          html`<tr><td>${str(line.description) || '—'}</td><td class="num">${str(line.quantity) || '—'}</td><td class="num">${str(line.unitPrice) || '—'}</td><td class="num">${line.taxRate ? `${str(line.taxRate)}%` : '—'}</td><td class="num">${amount(line.amountMinor, currency)}</td></tr>`,
      )}</tbody></table></div>`
    : '';
  const taxTable = taxes.length
    ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="VAT breakdown"><table><caption class="muted">VAT breakdown</caption>
<thead><tr><th scope="col">Rate</th><th scope="col">Category</th><th scope="col" class="num">Taxable</th><th scope="col" class="num">VAT</th></tr></thead>
<tbody>${taxes.map(
        (tax) =>
          html`<tr><td>${tax.rate ? `${str(tax.rate)}%` : '—'}</td><td>${tax.category ? coded(str(tax.category), VAT_CATEGORIES) : '—'}</td><td class="num">${amount(tax.taxableMinor, currency)}</td><td class="num">${amount(tax.taxMinor, currency)}</td></tr>`,
      )}</tbody></table></div>`
    : '';
  const totalRows: ReadonlyArray<readonly [string, string]> = [
    ['netMinor', 'Net'],
    ['taxMinor', 'VAT'],
    ['tipMinor', 'Tip'],
    ['totalMinor', 'Total'],
    ['amountDueMinor', 'Amount due'],
  ];
  const totals = totalRows.filter(([key]) => value(key) !== undefined && value(key) !== null);
  const terms = [
    value('paymentMethod')
      ? `Paid by ${PAYMENT_METHODS[str(value('paymentMethod'))] ?? str(value('paymentMethod'))}`
      : '',
    str(value('paymentTerms')),
  ].filter(Boolean);
  return html`<article class="document" aria-label="${title} as read"><h3>${title}${number ? ` ${number}` : ''}</h3>
${parties}${dates}${lineTable}${taxTable}${
  totals.length
    ? html`<dl class="facts totals">${totals.map(
        ([key, label]) => html`<dt>${label}</dt><dd>${amount(value(key), currency)}</dd>`,
      )}</dl>`
    : ''
}${terms.length ? html`<p>${terms.join(' · ')}</p>` : ''}</article>`;
}

/** Whether the item is best reviewed as a drawn document: e-invoices, whose original is XML. */
export function isStructured(kind: unknown): boolean {
  return kind === 'einvoice_ubl' || kind === 'einvoice_cii';
}

/**
 * The original as a person can review it: an image fitted to the frame with zoom and rotation
 * (the page script in src/web/assets.ts wires the buttons; without it the image still fits), a PDF at a readable width
 * with a link to open it full size, an e-invoice drawn as an invoice with its XML one click away.
 */
export function originalViewer(item: Row, label: string): Html {
  const fileId = str(item.file_id);
  const mediaType = str(item.media_type);
  const src = `${ORIGINAL}${fileId}`;
  const open = html`<p><a href="${src}" target="_blank" rel="noopener">Open the original (${str(item.file_name)})</a></p>`;
  if (isStructured(item.kind))
    return html`${readableDocument((item.fields as Row | null) ?? null)}
<p><a href="${src}" target="_blank" rel="noopener">Show the e-invoice's XML (${str(item.file_name)})</a></p>`;
  if (mediaType.startsWith('image/'))
    return html`<div class="viewer" data-viewer><div class="viewer-tools" hidden><button type="button" class="secondary" data-zoom="in" aria-label="Zoom in">+</button>
<button type="button" class="secondary" data-zoom="out" aria-label="Zoom out">−</button><button type="button" class="secondary" data-rotate aria-label="Rotate a quarter turn">⟳</button>
<button type="button" class="secondary" data-zoom="fit">Fit</button></div>
<div class="viewer-frame" tabindex="0" role="region" aria-label="${label}, scrollable when zoomed"><img class="original" src="${src}" alt="${label}"></div></div>${open}`;
  if (mediaType === 'application/pdf')
    return html`<iframe class="original pdf" src="${src}#view=FitH" title="${label}"></iframe>${open}`;
  return html`<iframe class="original" src="${src}" title="${label}" sandbox></iframe>${open}`;
}
