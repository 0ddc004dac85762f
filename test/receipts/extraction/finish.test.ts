import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { finish, isPlausibleReceiptDate } from '../../../src/receipts/extraction/finish.ts';
import type { ExtractedFields } from '../../../src/receipts/extraction/types.ts';

/** Issue 27: a read date outside the plausible window is a review reason, not a date. */
const source = { kind: 'text', page: 1, start: 0, end: 1 } as const;
const fields = (date: string): ExtractedFields => ({
  taxLines: [],
  lineItems: [],
  totalMinor: { value: 1250n, confidence: 0.9, source },
  currency: { value: 'EUR', confidence: 0.9, source },
  merchant: { value: 'Café', confidence: 0.9, source },
  date: { value: date, confidence: 0.9, source },
});

describe('receipt date plausibility', () => {
  it('accepts 1900-01-01 up to a year after today, refuses the rest', () => {
    const today = '2026-11-28';
    for (const date of ['1900-01-01', '2026-11-28', '2027-11-28']) {
      assert.equal(isPlausibleReceiptDate(date, today), true, date);
    }
    for (const date of ['0001-01-05', '1899-12-31', '2027-11-29', '2822-03-14', '2026-02-30']) {
      assert.equal(isPlausibleReceiptDate(date, today), false, date);
    }
  });

  it('finish drops an implausible date and asks for review', () => {
    const misread = finish('image_ocr', fields('2822-03-14'), [], '2026-11-28');
    assert.ok(misread.status === 'needs_review');
    assert.equal(misread.fields.date, undefined);
    assert.deepEqual(misread.reasons, ['implausible_date']);
    const fine = finish('image_ocr', fields('2026-11-20'), [], '2026-11-28');
    assert.equal(fine.status, 'ready');
  });
});
