// The score of one receipt/transaction pair.
//
//   base  = sum over components c of WEIGHT[c] * v(c)
//           v(c) = NEUTRAL[c] + confidence(c) * (value(c) - NEUTRAL[c]); a missing component is NEUTRAL[c]
//   score = base, then in this order:
//           order number found in the descriptor:  score + 0.6 * (1 - score)
//           card last four differ:                  score * (1 - 0.6 * confidence(card))
//           amount clearly differs (value 0):       score * (1 - 0.5 * confidence(total))
//           date outside the window (value 0):      score * (1 - 0.4 * confidence(date))
//           receipt paid in cash:                    score * 0.5
//
// Weights and neutrals were tuned on the development split of bench/matching-eval (seed 1) only.
import {
  amountComponent,
  type Component,
  cardComponent,
  currencyComponent,
  dateComponent,
  orderComponent,
} from './components.ts';
import { merchantEvidence } from './similarity.ts';
import type {
  MatchComponents,
  MatchScore,
  MatchSettings,
  MerchantAlias,
  ReceiptCandidate,
  ReceiptConfidences,
  TransactionCandidate,
} from './types.ts';

type Weighted = 'amount' | 'merchant' | 'date' | 'card' | 'currency';

export const WEIGHTS: Readonly<Record<Weighted, number>> = {
  amount: 0.4,
  merchant: 0.25,
  date: 0.2,
  card: 0.1,
  currency: 0.05,
};

/** What a missing component counts as: roughly how often a random pair agrees on it. */
export const NEUTRAL: Readonly<Record<Weighted, number>> = {
  amount: 0.3,
  merchant: 0.35,
  date: 0.4,
  card: 0.5,
  currency: 0.6,
};

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

function effective(name: Weighted, value: number | null, confidence: number): number {
  if (value === null) return NEUTRAL[name];
  return NEUTRAL[name] + clamp01(confidence) * (value - NEUTRAL[name]);
}

/** A penalty weighs as much as the reader trusted the field that caused it. */
const penalty = (factor: number, confidence: number): number => 1 - (1 - factor) * clamp01(confidence);

function combine(
  values: Readonly<Record<Weighted, number>>,
  components: MatchComponents,
  confidence: ReceiptConfidences,
  cash: boolean,
): number {
  let score = 0;
  for (const name of Object.keys(WEIGHTS) as Weighted[]) score += WEIGHTS[name] * values[name];
  if (components.order === 1) score += 0.6 * (1 - score);
  if (components.card === 0) score *= penalty(0.4, confidence.cardLastFour);
  if (components.amount === 0) score *= penalty(0.5, confidence.total);
  if (components.date === 0) score *= penalty(0.6, confidence.date);
  if (cash) score *= 0.5;
  return clamp01(score);
}

function isCash(receipt: ReceiptCandidate): boolean {
  return (
    receipt.paymentMethod !== null && /\b(cash|bar|bargeld|especes|efectivo)\b/i.test(receipt.paymentMethod)
  );
}

/**
 * Scores a pair; returns null without computing merchant similarity (the expensive part) when even
 * a perfect merchant could not lift the score to `floor`.
 */
export function scorePair(
  receipt: ReceiptCandidate,
  tx: TransactionCandidate,
  aliases: readonly MerchantAlias[],
  settings: MatchSettings,
  floor: number,
): MatchScore | null {
  const amount = amountComponent(receipt, tx, settings);
  const date = dateComponent(receipt, tx, settings);
  const currency = currencyComponent(receipt, tx);
  const card = cardComponent(receipt, tx);
  const order = orderComponent(receipt, tx);
  const conf = receipt.confidence;
  const values = {
    amount: effective('amount', amount.value, conf.total),
    date: effective('date', date.value, conf.date),
    currency: effective('currency', currency.value, conf.currency),
    card: effective('card', card.value, conf.cardLastFour),
    merchant: 1,
  };
  const partial: MatchComponents = {
    amount: amount.value,
    date: date.value,
    currency: currency.value,
    card: card.value,
    order: order.value,
    merchant: null,
  };
  const cash = isCash(receipt);
  if (combine(values, partial, conf, cash) < floor) return null;

  const merchant: Component = { value: null, reason: null };
  if (receipt.merchant !== null) {
    const evidence = merchantEvidence(receipt.merchant, tx.description, aliases, tx.merchantClean);
    merchant.value = evidence.value;
    merchant.reason =
      evidence.alias !== null
        ? `merchant by learned alias "${evidence.alias.pattern}" = "${evidence.alias.merchant}"`
        : `merchant similarity ${evidence.value.toFixed(2)}`;
  }
  values.merchant = effective('merchant', merchant.value, conf.merchant);
  const components: MatchComponents = { ...partial, merchant: merchant.value };
  const score = combine(values, components, conf, cash);

  // Supporting evidence first, then what speaks against the pair; within each, strongest kind first.
  const all = [order, amount, card, merchant, date, currency];
  const reasons = [
    ...all.filter((c) => c.value !== null && c.value >= 0.5),
    ...all.filter((c) => c.value !== null && c.value < 0.5),
  ].flatMap((c) => (c.reason === null ? [] : [c.reason]));
  if (cash) reasons.push('receipt says paid in cash');
  if (tx.status === 'pending') reasons.push('transaction is still pending');

  return {
    score,
    components,
    exactAmount: amount.exact,
    sameCard: card.value === 1,
    reasons,
  };
}

/** Score of a receipt against a transaction, with its components and reasons. */
export function scoreMatch(
  receipt: ReceiptCandidate,
  tx: TransactionCandidate,
  aliases: readonly MerchantAlias[],
  settings: MatchSettings,
): MatchScore {
  const scored = scorePair(receipt, tx, aliases, settings, Number.NEGATIVE_INFINITY);
  if (scored === null) throw new Error('unreachable: no floor was given');
  return scored;
}
