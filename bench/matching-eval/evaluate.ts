// Accuracy of the matching engine on a labelled set: recall@k, precision of what is suggested, and
// precision and coverage of auto-matching. Shared by bench/matching-eval.ts and the eval test.
import { autoMatchDecision } from '../../src/receipts/matching/auto-match.ts';
import { suggestChargeSets, suggestReceiptSets } from '../../src/receipts/matching/groups.ts';
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
  /**
   * With set suggestions (src/receipts/matching/groups.ts) ranked among the single ones by score:
   * a set of charges for the receipt, or a set of receipts (this one among them) for one charge.
   */
  recallAt1WithSets: number;
  recallAt3WithSets: number;
  recallAt1ReadRightWithSets: number;
  recallAt3ReadRightWithSets: number;
  /** The same over receipts whose fields the generator let the reader read right. */
  readRight: number;
  recallAt1ReadRight: number;
  recallAt3ReadRight: number;
  /** Of receipts shown a top suggestion, the share whose top suggestion is right. */
  topPrecision: number;
  /** Of all suggestions listed (up to topN per receipt), the share that are right. */
  suggestionPrecision: number;
  /** Distractor receipts that were shown any suggestion. */
  distractorsSuggested: number;
  /** Distractor receipts whose top suggestion scored at least CONFIDENT (a wrong, confident answer). */
  distractorsConfident: number;
  /** From the transaction side: the true receipt among the top 3 suggested receipts. */
  reverseRecallAt3: number;
  autoMatched: number;
  autoMatchPrecision: number;
  /** Auto-matched correctly, over receipts that have a true transaction. */
  autoMatchCoverage: number;
  recallAt3ByKind: Partial<Record<CaseKind, { n: number; recall: number; recallAt1: number }>>;
  /** What went wrong at auto-match, for tuning: receipt id -> chosen transaction id. */
  autoMatchErrors: string[];
}

const share = (n: number, d: number): number => (d === 0 ? 1 : n / d);

/** A top suggestion at or above this score reads as confident to the person reviewing. */
export const CONFIDENT = 0.7;

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
  let distractorsConfident = 0;
  let readRight = 0;
  const withSets = { hit1: 0, hit3: 0, read1: 0, read3: 0 };
  let hit1Read = 0;
  let hit3Read = 0;
  let reverseTotal = 0;
  let reverseHit = 0;
  let autoMatched = 0;
  let autoRight = 0;
  const autoMatchErrors: string[] = [];
  const byKind = new Map<CaseKind, { n: number; hit: number; hit1: number }>();

  for (const org of organizations) {
    transactions += org.transactions.length;
    // Combined billing: one charge, several receipts, any of which counts from the charge's side.
    const receiptOf = new Map<string, Set<string>>();
    // The best set of receipts per charge, and for each receipt the sets it is in.
    const waitingAll = org.receipts.map((r) => r.receipt);
    const groupsOf = new Map<string, Array<{ score: number; ids: string[] }>>();
    for (const tx of org.transactions) {
      const top = suggestReceiptSets(tx, waitingAll, org.aliases, settings)[0];
      if (top === undefined || top.score < settings.suggestThreshold) continue;
      for (const r of top.receipts)
        groupsOf.set(r.id, [...(groupsOf.get(r.id) ?? []), { score: top.score, ids: [tx.id] }]);
    }
    for (const { receipt, truth, kind, parts, readRight: read } of org.receipts) {
      const suggestions = suggestForReceipt(receipt, org.transactions, org.aliases, settings);
      const ids = suggestions.map((s) => s.candidate.id);
      listed += ids.length;
      if (ids.length > 0) shownTop++;
      if (truth === null) {
        distractors++;
        if (ids.length > 0) distractorsSuggested++;
        if ((suggestions[0]?.score.score ?? 0) >= CONFIDENT) distractorsConfident++;
      } else {
        // A split: any of its charges counts (the set is what the person then confirms).
        const right = new Set(parts ?? [truth]);
        for (const id of right) receiptOf.set(id, new Set([...(receiptOf.get(id) ?? []), receipt.id]));
        labelled++;
        const first = ids[0] !== undefined && right.has(ids[0]);
        if (first) {
          hit1++;
          rightTop++;
        }
        const found = ids.slice(0, 3).some((id) => right.has(id));
        if (found) hit3++;
        if (read !== false) {
          readRight++;
          if (first) hit1Read++;
          if (found) hit3Read++;
        }
        rightListed += ids.filter((id) => right.has(id)).length;
        const merged = [
          ...suggestions.map((x) => ({ score: x.score.score, ids: [x.candidate.id] })),
          ...suggestChargeSets(receipt, org.transactions, org.aliases, settings)
            .filter((g) => g.score >= settings.suggestThreshold)
            .slice(0, 1)
            .map((g) => ({ score: g.score, ids: g.transactions.map((t) => t.id) })),
          ...(groupsOf.get(receipt.id) ?? []),
        ].sort((a, b) => b.score - a.score);
        const setHit1 = merged[0]?.ids.some((id) => right.has(id)) === true;
        const setHit3 = merged.slice(0, 3).some((e) => e.ids.some((id) => right.has(id)));
        withSets.hit1 += setHit1 ? 1 : 0;
        withSets.hit3 += setHit3 ? 1 : 0;
        if (read !== false) {
          withSets.read1 += setHit1 ? 1 : 0;
          withSets.read3 += setHit3 ? 1 : 0;
        }
        const k = byKind.get(kind) ?? { n: 0, hit: 0, hit1: 0 };
        byKind.set(kind, { n: k.n + 1, hit: k.hit + (found ? 1 : 0), hit1: k.hit1 + (first ? 1 : 0) });
      }
      const chosen = autoMatchDecision(receipt, org.transactions, org.aliases, auto);
      if (chosen !== null) {
        autoMatched++;
        if (chosen.id === truth || (parts ?? []).includes(chosen.id)) autoRight++;
        else autoMatchErrors.push(`${receipt.id} -> ${chosen.id} (truth ${truth ?? 'none'})`);
      }
    }
    const waiting = org.receipts.map((r) => r.receipt);
    for (const tx of org.transactions) {
      const truth = receiptOf.get(tx.id);
      if (truth === undefined) continue;
      reverseTotal++;
      const ids = suggestForTransaction(tx, waiting, org.aliases, settings).map((s) => s.candidate.id);
      if (ids.slice(0, 3).some((id) => truth.has(id))) reverseHit++;
    }
  }

  const recallAt3ByKind: Metrics['recallAt3ByKind'] = {};
  for (const [kind, { n, hit, hit1 }] of byKind)
    recallAt3ByKind[kind] = { n, recall: share(hit, n), recallAt1: share(hit1, n) };
  return {
    labelled,
    distractors,
    transactions,
    recallAt1: share(hit1, labelled),
    recallAt3: share(hit3, labelled),
    recallAt1WithSets: share(withSets.hit1, labelled),
    recallAt3WithSets: share(withSets.hit3, labelled),
    recallAt1ReadRightWithSets: share(withSets.read1, readRight),
    recallAt3ReadRightWithSets: share(withSets.read3, readRight),
    readRight,
    recallAt1ReadRight: share(hit1Read, readRight),
    recallAt3ReadRight: share(hit3Read, readRight),
    topPrecision: share(rightTop, shownTop),
    suggestionPrecision: share(rightListed, listed),
    distractorsSuggested,
    distractorsConfident,
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
