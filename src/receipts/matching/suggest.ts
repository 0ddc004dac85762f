// Ranked suggestions in both directions: transactions for a receipt, receipts for a transaction.
import { scorePair } from './score.ts';
import type {
  MatchSettings,
  MerchantAlias,
  ReceiptCandidate,
  Suggestion,
  TransactionCandidate,
} from './types.ts';

/** The key of a declined pair; a declined pair is never suggested again. */
export function declineKey(receiptId: string, transactionId: string): string {
  return `${receiptId}:${transactionId}`;
}

function rank<T extends { id: string }>(scored: Suggestion<T>[], settings: MatchSettings): Suggestion<T>[] {
  // Ties are broken by id so that the same inputs always give the same order.
  scored.sort((a, b) => b.score.score - a.score.score || (a.candidate.id < b.candidate.id ? -1 : 1));
  const best = scored[0]?.score.score ?? 0;
  return scored.filter((s) => best - s.score.score <= settings.maxGapFromTop).slice(0, settings.topN);
}

/** The best `topN` open transactions for a receipt, scoring at least the suggestion threshold. */
export function suggestForReceipt(
  receipt: ReceiptCandidate,
  openTransactions: readonly TransactionCandidate[],
  aliases: readonly MerchantAlias[],
  settings: MatchSettings,
  declined: ReadonlySet<string> = new Set(),
): Suggestion<TransactionCandidate>[] {
  const scored: Suggestion<TransactionCandidate>[] = [];
  for (const tx of openTransactions) {
    if (declined.has(declineKey(receipt.id, tx.id))) continue;
    const score = scorePair(receipt, tx, aliases, settings, settings.suggestThreshold);
    if (score !== null && score.score >= settings.suggestThreshold) scored.push({ candidate: tx, score });
  }
  return rank(scored, settings);
}

/** The best `topN` waiting receipts for a transaction, scoring at least the suggestion threshold. */
export function suggestForTransaction(
  transaction: TransactionCandidate,
  waitingReceipts: readonly ReceiptCandidate[],
  aliases: readonly MerchantAlias[],
  settings: MatchSettings,
  declined: ReadonlySet<string> = new Set(),
): Suggestion<ReceiptCandidate>[] {
  const scored: Suggestion<ReceiptCandidate>[] = [];
  for (const receipt of waitingReceipts) {
    if (declined.has(declineKey(receipt.id, transaction.id))) continue;
    const score = scorePair(receipt, transaction, aliases, settings, settings.suggestThreshold);
    if (score !== null && score.score >= settings.suggestThreshold)
      scored.push({ candidate: receipt, score });
  }
  return rank(scored, settings);
}
