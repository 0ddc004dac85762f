import { EXTRACTION_JOB, runReceiptExtractions } from '../receipts/processing/job.ts';
import { REREAD_JOB, rereadWhenReadersArrive } from '../receipts/processing/reread-unavailable.ts';
import { scanNewTransactions, TRANSACTION_SCAN_JOB } from '../receipts/processing/transaction-scan.ts';
import { RATES_JOB, refreshReferenceRates } from '../receipts/rates/refresh.ts';
import type { Job } from './runner.ts';

/**
 * Receipts: extraction claimed from the books queue with a lease (woken at once by an upload in
 * this process), and the scan that suggests waiting receipts for newly arrived transactions.
 */
export const receiptsJobs: readonly Job[] = [
  {
    name: EXTRACTION_JOB,
    intervalMs: 1_000,
    wakeOn: ['books'],
    run: (services) => runReceiptExtractions(services),
  },
  {
    name: TRANSACTION_SCAN_JOB,
    intervalMs: 2_000,
    wakeOn: ['books'],
    run: (services) => scanNewTransactions(services),
  },
  {
    // Receipts that waited for a missing reader (Tesseract, pdftotext) are read once it is there.
    name: REREAD_JOB,
    intervalMs: 60_000,
    run: (services) => rereadWhenReadersArrive(services),
  },
  {
    // Exchange rates from the operator's ECB-format URL when due (off unless configured); the
    // state row's lease lets one process fetch at a time (decision 492). Housekeeping: reports 0.
    name: RATES_JOB,
    intervalMs: 60_000,
    run: async (services) => {
      await refreshReferenceRates(services);
      return 0;
    },
  },
];
