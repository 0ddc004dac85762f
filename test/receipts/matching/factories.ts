// Small builders for matching tests: a plausible receipt and transaction, overridden per test.
import type { ReceiptCandidate, TransactionCandidate } from '../../../src/receipts/matching/types.ts';

export function receipt(overrides: Partial<ReceiptCandidate> = {}): ReceiptCandidate {
  return {
    id: 'rc-1',
    merchant: 'Blue Bottle Coffee',
    date: '2026-05-04',
    totalMinor: 1250n,
    currency: 'EUR',
    cardLastFour: '4242',
    paymentMethod: 'visa',
    orderNumber: null,
    documentType: 'receipt',
    confidence: { merchant: 1, date: 1, total: 1, currency: 1, cardLastFour: 1 },
    ...overrides,
  };
}

export function transaction(overrides: Partial<TransactionCandidate> = {}): TransactionCandidate {
  return {
    id: 'tx-1',
    accountId: 'acct-1',
    cardLastFour: '4242',
    bookedDate: '2026-05-05',
    amountMinor: -1250n,
    currency: 'EUR',
    originalAmountMinor: null,
    originalCurrency: null,
    description: 'SQ *BLUE BOTTLE COFFEE 415-555',
    merchantClean: null,
    status: 'booked',
    ...overrides,
  };
}
