import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  type ConsolidationPreview,
  consolidationCanonicalForm,
  consolidationFingerprint,
  consolidationMode,
} from '../../../src/receipts/matching/consolidation.ts';
import { receipt } from './factories.ts';

const preview: ConsolidationPreview = {
  receiptEntry: { id: '0190a000-0000-7000-8000-000000000001', revision: 3 },
  targetEntry: { id: '0190a000-0000-7000-8000-000000000002', revision: 1 },
  mode: 'provider_card_settlement',
  transactions: [
    { id: '0190a000-0000-7000-8000-00000000000b', revision: 2 },
    { id: '0190a000-0000-7000-8000-00000000000a', revision: 1 },
  ],
  originalEvidence: [{ id: '0190a000-0000-7000-8000-0000000000e1', contentHash: 'ab'.repeat(32) }],
  paymentIdentity: { method: 'card', cardLastFour: '4242', provider: 'paypal' },
};

describe('consolidationFingerprint', () => {
  test('is SHA-256 in lowercase hex over the documented canonical form', () => {
    const form = consolidationCanonicalForm(preview);
    assert.equal(
      form,
      '{"evidence":[{"contentHash":"' +
        'ab'.repeat(32) +
        '","id":"0190a000-0000-7000-8000-0000000000e1"}],"mode":"provider_card_settlement",' +
        '"payment":{"cardLastFour":"4242","method":"card","provider":"paypal"},' +
        '"receipt":{"id":"0190a000-0000-7000-8000-000000000001","revision":3},' +
        '"target":{"id":"0190a000-0000-7000-8000-000000000002","revision":1},' +
        '"transactions":[{"id":"0190a000-0000-7000-8000-00000000000a","revision":1},' +
        '{"id":"0190a000-0000-7000-8000-00000000000b","revision":2}],"v":1}',
    );
    const fingerprint = consolidationFingerprint(preview);
    assert.match(fingerprint, /^[0-9a-f]{64}$/);
    assert.equal(fingerprint, createHash('sha256').update(form, 'utf8').digest('hex'));
  });

  test('refuses a preview that names a transaction twice or a revision that is not positive', () => {
    const first = preview.transactions[0];
    assert.ok(first);
    assert.throws(() => consolidationFingerprint({ ...preview, transactions: [first, first] }));
    assert.throws(() => consolidationFingerprint({ ...preview, receiptEntry: { id: 'x', revision: 0 } }));
  });

  const ref = fc.record({ id: fc.uuid(), revision: fc.integer({ min: 1, max: 1000 }) });
  const previews = fc.record({
    receiptEntry: ref,
    targetEntry: ref,
    mode: fc.constantFrom('same_order' as const, 'provider_card_settlement' as const),
    transactions: fc.uniqueArray(ref, { minLength: 1, maxLength: 20, selector: (t) => t.id }),
    originalEvidence: fc.uniqueArray(
      fc.record({ id: fc.uuid(), contentHash: fc.stringMatching(/^[0-9a-f]{64}$/) }),
      { minLength: 1, maxLength: 10, selector: (e) => e.id },
    ),
    paymentIdentity: fc.record({
      method: fc.option(fc.constantFrom('card', 'wallet', 'paypal')),
      cardLastFour: fc.option(fc.stringMatching(/^[0-9]{4}$/)),
      provider: fc.option(fc.constantFrom('paypal', 'applepay', 'klarna', 'stripe')),
    }),
  });

  test('property: reordering the inputs never changes it', () => {
    fc.assert(
      fc.property(previews, fc.integer(), (p, seed) => {
        const shuffle = <T>(items: readonly T[]): T[] =>
          items
            .map((item, i) => ({ item, key: Math.sin(seed + i * 7919) }))
            .sort((a, b) => a.key - b.key)
            .map((x) => x.item);
        const shuffled = {
          paymentIdentity: p.paymentIdentity,
          originalEvidence: shuffle(p.originalEvidence),
          transactions: shuffle(p.transactions),
          mode: p.mode,
          targetEntry: p.targetEntry,
          receiptEntry: p.receiptEntry,
        };
        assert.equal(consolidationFingerprint(shuffled), consolidationFingerprint(p));
      }),
    );
  });

  // Every way a reviewer's preview can go stale: one field of one involved record changes.
  const mutations: Array<(p: ConsolidationPreview, n: number) => ConsolidationPreview> = [
    (p, n) => ({ ...p, receiptEntry: { ...p.receiptEntry, revision: p.receiptEntry.revision + n } }),
    (p) => ({ ...p, receiptEntry: { ...p.receiptEntry, id: `${p.receiptEntry.id}0` } }),
    (p, n) => ({ ...p, targetEntry: { ...p.targetEntry, revision: p.targetEntry.revision + n } }),
    (p) => ({ ...p, targetEntry: { ...p.targetEntry, id: `${p.targetEntry.id}0` } }),
    (p) => ({ ...p, mode: p.mode === 'same_order' ? 'provider_card_settlement' : 'same_order' }),
    (p, n) => ({
      ...p,
      transactions: p.transactions.map((t, i) => (i === 0 ? { ...t, revision: t.revision + n } : t)),
    }),
    (p) => ({ ...p, transactions: [...p.transactions, { id: 'another-transaction', revision: 1 }] }),
    (p) => ({ ...p, transactions: p.transactions.slice(1) }),
    (p) => ({
      ...p,
      originalEvidence: p.originalEvidence.map((e, i) =>
        i === 0 ? { ...e, contentHash: `${e.contentHash}0` } : e,
      ),
    }),
    (p) => ({
      ...p,
      originalEvidence: [...p.originalEvidence, { id: 'another-document', contentHash: '00' }],
    }),
    (p) => ({ ...p, originalEvidence: p.originalEvidence.slice(1) }),
    (p) => ({
      ...p,
      paymentIdentity: { ...p.paymentIdentity, method: `${p.paymentIdentity.method ?? ''}x` },
    }),
    (p) => ({
      ...p,
      paymentIdentity: {
        ...p.paymentIdentity,
        cardLastFour: p.paymentIdentity.cardLastFour === '0000' ? '0001' : '0000',
      },
    }),
    (p) => ({
      ...p,
      paymentIdentity: {
        ...p.paymentIdentity,
        provider: p.paymentIdentity.provider === null ? 'stripe' : null,
      },
    }),
  ];

  test('property: changing any involved field or revision changes it', () => {
    fc.assert(
      fc.property(
        previews,
        fc.nat({ max: mutations.length - 1 }),
        fc.integer({ min: 1, max: 5 }),
        (p, which, n) => {
          const mutate = mutations[which];
          assert.ok(mutate);
          assert.notEqual(consolidationFingerprint(mutate(p, n)), consolidationFingerprint(p));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('consolidationMode', () => {
  test('an order confirmation and its receipt: same order number, or same merchant and total', () => {
    const confirmation = receipt({
      id: 'a',
      documentType: 'order_confirmation',
      merchant: 'Zalando SE',
      orderNumber: '10304567890',
    });
    const sameNumber = receipt({
      id: 'b',
      merchant: 'ZALANDO',
      orderNumber: '1030-4567-890',
      totalMinor: 999n,
    });
    assert.equal(consolidationMode(confirmation, sameNumber), 'same_order');
    const sameShop = receipt({ id: 'c', merchant: 'Zalando SE', orderNumber: null });
    assert.equal(consolidationMode(sameShop, confirmation), 'same_order');
    assert.equal(consolidationMode(confirmation, receipt({ merchant: 'Otto', orderNumber: null })), null);
  });

  test('a provider receipt and the card document that settled it, in either order', () => {
    const paypal = receipt({
      id: 'p',
      merchant: 'Spotify AB',
      paymentMethod: 'PayPal',
      cardLastFour: null,
      totalMinor: 1099n,
    });
    const slip = receipt({
      id: 's',
      merchant: 'Spotify',
      paymentMethod: 'visa',
      cardLastFour: '4242',
      totalMinor: 1099n,
    });
    assert.equal(consolidationMode(paypal, slip), 'provider_card_settlement');
    assert.equal(consolidationMode(slip, paypal), 'provider_card_settlement');
    // Two provider documents are not a provider and its settling card.
    const paypalCard = { ...slip, merchant: 'PayPal Europe' };
    assert.equal(consolidationMode(paypal, paypalCard), null);
    const klarna = receipt({
      id: 'k',
      merchant: 'IKEA',
      paymentMethod: 'Klarna',
      cardLastFour: null,
      totalMinor: 5000n,
    });
    assert.equal(
      consolidationMode(klarna, { ...slip, totalMinor: 4999n }),
      null,
      'totals must agree to the cent',
    );
  });
});
