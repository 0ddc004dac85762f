import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ExtractionResult } from '../../src/receipts/extraction/index.ts';

// The real receipts of ../shared/corpus/receipts (MANIFEST.json) and how a result is scored
// against them: the manifest's conventions (totalMinor in minor units with alternatives, date
// with alternatives or null when none is printed, currency only where printed, merchant by
// normalised containment either way against the name or its aliases).

/** ../shared/corpus/receipts beside the checkout (as the e-invoice tests), or RECEIPT_CORPUS. */
export const corpusDir = process.env.RECEIPT_CORPUS ?? path.resolve('..', 'shared', 'corpus', 'receipts');

/** Held-out half: by the file's hash, so the split does not follow names or classes. */
export function heldOut(r: { sha256: string }): boolean {
  return Number.parseInt(r.sha256.charAt(0), 16) % 2 === 1;
}

export interface CorpusReceipt {
  file: string;
  sha256: string;
  class: 'photo' | 'screenshot' | 'render' | 'pdf_text' | 'pdf_scan';
  country: string;
  language: string;
  expected: {
    merchant: string | null;
    merchantAliases?: string[];
    date: string | null;
    dateAlternatives?: string[];
    currency: string | null;
    totalMinor: string;
    totalAlternatives?: string[];
    taxMinor: string | null;
  };
}

export function corpusReceipts(dir = corpusDir): CorpusReceipt[] {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'MANIFEST.json'), 'utf8')) as {
    receipts: CorpusReceipt[];
  };
  return manifest.receipts;
}

export type ScoredField = 'total' | 'date' | 'currency' | 'merchant' | 'tax';
export type Score = Partial<Record<ScoredField, boolean>>;

const norm = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

export function scoreResult(r: CorpusReceipt, result: ExtractionResult): Score {
  const fields = result.status === 'failed' ? undefined : result.fields;
  const e = r.expected;
  const score: Score = {};
  const total = fields?.totalMinor?.value?.toString();
  score.total = total !== undefined && [e.totalMinor, ...(e.totalAlternatives ?? [])].includes(total);
  const date = fields?.date?.value;
  score.date =
    e.date === null
      ? date === undefined
      : date !== undefined && [e.date, ...(e.dateAlternatives ?? [])].includes(date);
  if (e.currency !== null) score.currency = fields?.currency?.value === e.currency;
  if (e.merchant !== null) {
    const got = norm(fields?.merchant?.value ?? '');
    score.merchant =
      got.length >= 3 &&
      [e.merchant, ...(e.merchantAliases ?? [])].some((name) => {
        const want = norm(name);
        return got.includes(want) || want.includes(got);
      });
  }
  if (e.taxMinor !== null) score.tax = fields?.taxMinor?.value?.toString() === e.taxMinor;
  return score;
}

/** A ready result is wrong when its total, date or (where printed) currency is wrong. */
export function wrongReady(r: CorpusReceipt, result: ExtractionResult, score: Score): boolean {
  return (
    result.status === 'ready' &&
    (!score.total || !score.date || (r.expected.currency !== null && score.currency === false))
  );
}
