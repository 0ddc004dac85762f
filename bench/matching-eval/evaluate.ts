// Accuracy of the matching engine on a labelled set: recall@k, precision of what is suggested, and
// precision and coverage of auto-matching. Shared by bench/matching-eval.ts and the eval test.
import { autoMatchDecision } from '../../src/receipts/matching/auto-match.ts';
import { suggestForReceipt, suggestForTransaction } from '../../src/receipts/matching/suggest.ts';
import { defaultMatchSettings, type MatchSettings } from '../../src/receipts/matching/types.ts';
import type { CaseKind, Organization } from './generate.ts';

export interface Metrics {
  /** Receipts that have a true transaction. */
  labelled: number;
  distractors: number;
  transactions: number;
  recallAt1: number;
  recallAt3: number;
  /** Of receipts shown a top suggestion, the share whose top suggestion is right. */
  topPrecision: number;
  /** Of all suggestions listed (up to topN per receipt), the share that are right. */
  suggestionPrecision: number;
  /** Distractor receipts that were shown any suggestion. */
  distractorsSuggested: number;
  /** From the transaction side: the true receipt among the top 3 suggested receipts. */
  reverseRecallAt3: number;
  autoMatched: number;
  autoMatchPrecision: number;
  /** Auto-matched correctly, over receipts that have a true transaction. */
  autoMatchCoverage: number;
  recallAt3ByKind: Partial<Record<CaseKind, { n: number; recall: number }>>;
  /** What went wrong at auto-match, for tuning: receipt id -> chosen transaction id. */
  autoMatchErrors: string[];
}

const share = (n: number, d: number): number => (d === 0 ? 1 : n / d);

export function evaluate(organizations: readonly Organization[], settings: MatchSettings): Metrics {
  const auto = { ...settings, autoMatch: { ...settings.autoMatch, enabled: true } };
  let labelled = 0;
  let distractors = 0;
  let transactions = 0;
  let hit1 = 0;
  let hit3 = 0;
  let shownTop = 0;
  let rightTop = 0;
  let listed = 0;
  let rightListed = 0;
  let distractorsSuggested = 0;
  let reverseTotal = 0;
  let reverseHit = 0;
  let autoMatched = 0;
  let autoRight = 0;
  const autoMatchErrors: string[] = [];
  const byKind = new Map<CaseKind, { n: number; hit: number }>();

  for (const org of organizations) {
    transactions += org.transactions.length;
    const receiptOf = new Map<string, string>();
    for (const { receipt, truth, kind } of org.receipts) {
      const suggestions = suggestForReceipt(receipt, org.transactions, org.aliases, settings);
      const ids = suggestions.map((s) => s.candidate.id);
      listed += ids.length;
      if (ids.length > 0) shownTop++;
      if (truth === null) {
        distractors++;
        if (ids.length > 0) distractorsSuggested++;
      } else {
        receiptOf.set(truth, receipt.id);
        labelled++;
        if (ids[0] === truth) {
          hit1++;
          rightTop++;
        }
        const found = ids.slice(0, 3).includes(truth);
        if (found) hit3++;
        if (ids.includes(truth)) rightListed++;
        const k = byKind.get(kind) ?? { n: 0, hit: 0 };
        byKind.set(kind, { n: k.n + 1, hit: k.hit + (found ? 1 : 0) });
      }
      const chosen = autoMatchDecision(receipt, org.transactions, org.aliases, auto);
      if (chosen !== null) {
        autoMatched++;
        if (chosen.id === truth) autoRight++;
        else autoMatchErrors.push(`${receipt.id} -> ${chosen.id} (truth ${truth ?? 'none'})`);
      }
    }
    const waiting = org.receipts.map((r) => r.receipt);
    for (const tx of org.transactions) {
      const truth = receiptOf.get(tx.id);
      if (truth === undefined) continue;
      reverseTotal++;
      const ids = suggestForTransaction(tx, waiting, org.aliases, settings).map((s) => s.candidate.id);
      if (ids.slice(0, 3).includes(truth)) reverseHit++;
    }
  }

  const recallAt3ByKind: Metrics['recallAt3ByKind'] = {};
  for (const [kind, { n, hit }] of byKind) recallAt3ByKind[kind] = { n, recall: share(hit, n) };
  return {
    labelled,
    distractors,
    transactions,
    recallAt1: share(hit1, labelled),
    recallAt3: share(hit3, labelled),
    topPrecision: share(rightTop, shownTop),
    suggestionPrecision: share(rightListed, listed),
    distractorsSuggested,
    reverseRecallAt3: share(reverseHit, reverseTotal),
    autoMatched,
    autoMatchPrecision: share(autoRight, autoMatched),
    autoMatchCoverage: share(autoRight, labelled),
    recallAt3ByKind,
    autoMatchErrors,
  };
}

/**
 * The settings the evaluation runs with: the defaults plus approximate rates (as an organization
 * would configure them), which differ from the generator's daily rates by up to 1 % and its fees.
 */
export const evalSettings: MatchSettings = {
  ...defaultMatchSettings,
  approximateRates: { 'USD/EUR': 0.92, 'GBP/EUR': 1.17, 'CHF/EUR': 1.04 },
};

/** Ablations: the same set with card digits removed from receipts, or with no learned aliases. */
export function withoutCards(organizations: readonly Organization[]): Organization[] {
  return organizations.map((o) => ({
    ...o,
    receipts: o.receipts.map((r) => ({ ...r, receipt: { ...r.receipt, cardLastFour: null } })),
  }));
}

export function withoutAliases(organizations: readonly Organization[]): Organization[] {
  return organizations.map((o) => ({ ...o, aliases: [] }));
}
