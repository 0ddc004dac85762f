// Receipt consolidation (issue 12, part 6): one purchase documented twice. Either an order
// confirmation and its receipt (`same_order`), or a wallet/payment-provider receipt (PayPal, Apple
// Pay, Klarna, Stripe...) and the card charge that settled it (`provider_card_settlement`).
//
// The dashboard shows a preview; the confirmation sends back the preview's fingerprint, and the
// operation refuses it unless the fingerprint of the current state is the same. So the fingerprint
// must change whenever anything the reviewer saw changes, and must not depend on input order.
import { canonicalJson, sha256Hex } from '../../lib/canonical-json.ts';
import { normalizeMerchant } from './descriptor.ts';
import { tokenSimilarity } from './similarity.ts';
import type { ReceiptCandidate } from './types.ts';

export type ConsolidationMode = 'same_order' | 'provider_card_settlement';

export interface RevisionRef {
  id: string;
  revision: number;
}

export interface EvidenceRef {
  id: string;
  /** SHA-256 (lowercase hex) of the stored original document's bytes. */
  contentHash: string;
}

export interface PaymentIdentity {
  method: string | null;
  cardLastFour: string | null;
  provider: string | null;
}

export interface ConsolidationPreview {
  receiptEntry: RevisionRef;
  targetEntry: RevisionRef;
  mode: ConsolidationMode;
  transactions: readonly RevisionRef[];
  /** The receipts (inbox items) involved with their revisions; the key is left out when absent. */
  receipts?: readonly RevisionRef[];
  originalEvidence: readonly EvidenceRef[];
  paymentIdentity: PaymentIdentity;
}

const byId = <T extends { id: string }>(items: readonly T[]): T[] =>
  [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

function assertUniqueIds(kind: string, items: readonly { id: string }[]): void {
  if (new Set(items.map((i) => i.id)).size !== items.length) {
    throw new Error(`consolidation preview lists a ${kind} twice`);
  }
}

/**
 * SHA-256, 64 lowercase hex characters, of the UTF-8 bytes of this canonical form (version 1):
 *
 *   canonical JSON (object keys sorted by code unit at every depth, no whitespace, strings and
 *   integers as JSON.stringify writes them) of
 *   {
 *     "v": 1,
 *     "receipt":  {"id", "revision"},
 *     "target":   {"id", "revision"},
 *     "mode":     "same_order" | "provider_card_settlement",
 *     "transactions": [{"id", "revision"}...]        sorted by id,
 *     "evidence":     [{"id", "contentHash"}...]     sorted by id,
 *     "payment":  {"method", "cardLastFour", "provider"}   (null when absent),
 *     "receipts":     [{"id", "revision"}...]        sorted by id; only when the preview lists receipts
 *   }
 *
 * Ids and hashes are taken as given (no case folding), so a different spelling is a different
 * preview. A preview that names one transaction or evidence twice is refused, not deduplicated.
 */
export function consolidationCanonicalForm(preview: ConsolidationPreview): string {
  assertUniqueIds('transaction', preview.transactions);
  assertUniqueIds('piece of evidence', preview.originalEvidence);
  if (preview.receipts) assertUniqueIds('receipt', preview.receipts);
  const ref = (r: RevisionRef) => {
    if (!Number.isSafeInteger(r.revision) || r.revision < 1)
      throw new Error('revision must be a positive integer');
    return { id: r.id, revision: r.revision };
  };
  return canonicalJson({
    v: 1,
    receipt: ref(preview.receiptEntry),
    target: ref(preview.targetEntry),
    mode: preview.mode,
    transactions: byId(preview.transactions).map(ref),
    evidence: byId(preview.originalEvidence).map((e) => ({ id: e.id, contentHash: e.contentHash })),
    payment: {
      method: preview.paymentIdentity.method,
      cardLastFour: preview.paymentIdentity.cardLastFour,
      provider: preview.paymentIdentity.provider,
    },
    ...(preview.receipts ? { receipts: byId(preview.receipts).map(ref) } : {}),
  });
}

export function consolidationFingerprint(preview: ConsolidationPreview): string {
  return sha256Hex(consolidationCanonicalForm(preview));
}

const PROVIDERS = /\b(paypal|apple ?pay|google ?pay|klarna|stripe|adyen|mollie|sumup|square|revolut|wise)\b/;

/** The payment provider a receipt was paid through, if it names one. */
export function paymentProvider(receipt: ReceiptCandidate): string | null {
  const text = `${receipt.paymentMethod ?? ''} ${receipt.merchant ?? ''}`.toLowerCase();
  const found = PROVIDERS.exec(text);
  return found?.[1]?.replace(' ', '') ?? null;
}

const compactOrder = (o: string | null): string | null => {
  const c = o?.toUpperCase().replace(/[^A-Z0-9]/g, '') ?? '';
  return c.length >= 4 ? c : null;
};

function sameMerchant(a: ReceiptCandidate, b: ReceiptCandidate): boolean {
  if (a.merchant === null || b.merchant === null) return false;
  return (
    tokenSimilarity(normalizeMerchant(a.merchant).split(' '), normalizeMerchant(b.merchant).split(' ')) >=
    0.85
  );
}

const sameTotal = (a: ReceiptCandidate, b: ReceiptCandidate): boolean =>
  a.totalMinor !== null && a.totalMinor === b.totalMinor && a.currency === b.currency;

function settles(provider: ReceiptCandidate, card: ReceiptCandidate): boolean {
  return (
    paymentProvider(provider) !== null &&
    paymentProvider(card) === null &&
    card.cardLastFour !== null &&
    sameTotal(provider, card)
  );
}

/**
 * How two receipts document one purchase, or null when they do not. `same_order`: the same order
 * number, or an order confirmation and a receipt of the same merchant and total. Otherwise
 * `provider_card_settlement`: one was paid through a provider and the other is the card document
 * of the same total that settled it. Symmetric in its arguments.
 */
export function consolidationMode(a: ReceiptCandidate, b: ReceiptCandidate): ConsolidationMode | null {
  const orderA = compactOrder(a.orderNumber);
  if (orderA !== null && orderA === compactOrder(b.orderNumber)) return 'same_order';
  const confirmation = (r: ReceiptCandidate) => r.documentType === 'order_confirmation';
  if (confirmation(a) !== confirmation(b) && sameMerchant(a, b) && sameTotal(a, b)) return 'same_order';
  if (settles(a, b) || settles(b, a)) return 'provider_card_settlement';
  return null;
}
