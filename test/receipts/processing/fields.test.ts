// The matching engine's view of a stored receipt: a negative total keeps its direction (issue 26).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { receiptCandidate } from '../../../src/receipts/processing/fields.ts';

const row = (total: string | null, documentType = 'receipt') => ({
  id: 'rc-1',
  merchant: 'Zalando SE',
  document_date: '2026-05-04',
  total_minor: total,
  currency: 'EUR',
  card_last_four: null,
  fields: JSON.stringify({ documentType: { value: documentType, confidence: 0.9 } }),
});

test('a return slip read as a receipt with a negative total looks for money in', () => {
  const candidate = receiptCandidate(row('-4599'));
  assert.equal(candidate.totalMinor, 4599n);
  assert.equal(candidate.documentType, 'refund');
});

test('a positive receipt stays a purchase, a credit note stays a refund', () => {
  assert.equal(receiptCandidate(row('4599')).documentType, 'receipt');
  assert.equal(receiptCandidate(row('4599', 'credit_note')).documentType, 'refund');
  assert.equal(receiptCandidate(row(null)).documentType, 'receipt');
});
