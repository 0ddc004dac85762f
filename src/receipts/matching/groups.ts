// Many-to-one and one-to-many (issue 26 part 1), in the engine only: a set of charges that together
// pay one receipt (a bill split over two cards, an order charged in parts), and a set of receipts
// that one charge pays (app-store receipts billed together, invoices paid by one transfer).
//
// Bounded: only candidates whose every other piece of evidence is good enough to stand alone are
// combined (at most MAX_PIECES of them, the best first), sets have 2..MAX_SET members, and the sum
// must equal the other side to the minor unit in one currency: a near sum is no evidence at all.
import { scorePair } from './score.ts';
import type {
  MatchScore,
  MatchSettings,
  MerchantAlias,
  ReceiptCandidate,
  TransactionCandidate,
} from './types.ts';

const MAX_PIECES = 12;
const MAX_SET = 3;
/** A set is a little less sure than one pair with the same evidence: sums of small amounts collide. */
const SET_DISCOUNT = 0.95;
/** A piece must score this much on its own (amount taken as equal) to be combined. */
const PIECE_FLOOR = 0.75;

export interface GroupSuggestion {
  kind: 'charges' | 'receipts';
  /** The charges (kind `charges`) or the one charge (kind `receipts`). */
  transactions: TransactionCandidate[];
  /** The receipt (kind `charges`) or the receipts (kind `receipts`). */
  receipts: ReceiptCandidate[];
  /** The weakest member's score, discounted: the set is as good as its weakest link. */
  score: number;
  reasons: string[];
}

const abs = (n: bigint): bigint => (n < 0n ? -n : n);

/** Subsets of 2..MAX_SET of `amounts` (indexes) that sum to `target` exactly. */
function subsetsSumming(amounts: readonly bigint[], target: bigint): number[][] {
  const found: number[][] = [];
  const walk = (start: number, chosen: number[], sum: bigint): void => {
    if (sum === target && chosen.length >= 2) found.push([...chosen]);
    if (chosen.length === MAX_SET || sum >= target) return;
    for (let i = start; i < amounts.length; i++) {
      chosen.push(i);
      walk(i + 1, chosen, sum + (amounts[i] ?? 0n));
      chosen.pop();
    }
  };
  walk(0, [], 0n);
  return found;
}

function setScore(scores: readonly MatchScore[]): number {
  return Math.min(...scores.map((s) => s.score)) * SET_DISCOUNT;
}

/** Sets of open charges that together pay the receipt, best first. */
export function suggestChargeSets(
  receipt: ReceiptCandidate,
  open: readonly TransactionCandidate[],
  aliases: readonly MerchantAlias[],
  settings: MatchSettings,
): GroupSuggestion[] {
  const total = receipt.totalMinor;
  if (total === null || total <= 0n) return [];
  const pieces: Array<{ tx: TransactionCandidate; score: MatchScore }> = [];
  for (const tx of open) {
    const amount = abs(tx.amountMinor);
    if (amount >= total || (receipt.currency !== null && tx.currency !== receipt.currency)) continue;
    // Scored as if this charge were the whole receipt: every other piece of evidence must hold.
    const score = scorePair({ ...receipt, totalMinor: amount }, tx, aliases, settings, PIECE_FLOOR);
    if (score !== null && score.score >= PIECE_FLOOR && score.exactAmount) pieces.push({ tx, score });
  }
  pieces.sort((a, b) => b.score.score - a.score.score || (a.tx.id < b.tx.id ? -1 : 1));
  const best = pieces.slice(0, MAX_PIECES);
  return subsetsSumming(
    best.map((p) => abs(p.tx.amountMinor)),
    total,
  )
    .map((idx) => {
      const members = idx.map((i) => best[i]).filter((p) => p !== undefined);
      return {
        kind: 'charges' as const,
        transactions: members.map((m) => m.tx),
        receipts: [receipt],
        score: setScore(members.map((m) => m.score)),
        reasons: [
          `${members.length} charges add up to the total`,
          ...(members[0]?.score.reasons.filter((r) => r !== 'amount equal') ?? []),
        ],
      };
    })
    .sort((a, b) => b.score - a.score);
}

/** Sets of waiting receipts that one charge pays, best first. */
export function suggestReceiptSets(
  tx: TransactionCandidate,
  waiting: readonly ReceiptCandidate[],
  aliases: readonly MerchantAlias[],
  settings: MatchSettings,
): GroupSuggestion[] {
  const charged = abs(tx.amountMinor);
  const pieces: Array<{ receipt: ReceiptCandidate; score: MatchScore }> = [];
  for (const receipt of waiting) {
    const total = receipt.totalMinor;
    if (total === null || total <= 0n || total >= charged) continue;
    if (receipt.currency !== null && receipt.currency !== tx.currency) continue;
    const part = { ...tx, amountMinor: tx.amountMinor < 0n ? -total : total };
    const score = scorePair(receipt, part, aliases, settings, PIECE_FLOOR);
    if (score !== null && score.score >= PIECE_FLOOR && score.exactAmount) pieces.push({ receipt, score });
  }
  pieces.sort((a, b) => b.score.score - a.score.score || (a.receipt.id < b.receipt.id ? -1 : 1));
  const best = pieces.slice(0, MAX_PIECES);
  return subsetsSumming(
    best.map((p) => p.receipt.totalMinor ?? 0n),
    charged,
  )
    .map((idx) => {
      const members = idx.map((i) => best[i]).filter((p) => p !== undefined);
      return {
        kind: 'receipts' as const,
        transactions: [tx],
        receipts: members.map((m) => m.receipt),
        score: setScore(members.map((m) => m.score)),
        reasons: [
          `${members.length} receipts add up to the charge`,
          ...(members[0]?.score.reasons.filter((r) => r !== 'amount equal') ?? []),
        ],
      };
    })
    .sort((a, b) => b.score - a.score);
}
