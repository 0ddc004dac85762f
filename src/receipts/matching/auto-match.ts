// The auto-match rule. Auto-matching attaches a receipt without a person looking, so it accepts
// only what is close to proof: the same amount to the cent in the same currency, charged to the
// card printed on the receipt, inside the booking window, and clearly ahead of any alternative.
import { daysBetween } from './components.ts';
import { suggestForReceipt } from './suggest.ts';
import type { MatchSettings, MerchantAlias, ReceiptCandidate, TransactionCandidate } from './types.ts';

/** Extraction confidence below this on the total or card makes a field unfit for auto-matching. */
const MIN_FIELD_CONFIDENCE = 0.9;

/** Charges of one amount to one account this close together are a series (monthly, daily). */
const SERIES_DAYS = 45;

/**
 * Another open charge of exactly the same amount to the same account within SERIES_DAYS: a
 * subscription or a habit. Which month an invoice belongs to hangs on how its date was read (an
 * invoice that prints only its service period is dated by the period's end, a month late), so a
 * person decides; the suggestion still stands.
 */
function inSeries(top: TransactionCandidate, open: readonly TransactionCandidate[]): boolean {
  return open.some(
    (tx) =>
      tx.id !== top.id &&
      tx.accountId === top.accountId &&
      tx.currency === top.currency &&
      tx.amountMinor === top.amountMinor &&
      Math.abs(daysBetween(top.bookedDate, tx.bookedDate)) <= SERIES_DAYS,
  );
}

/** The transaction to attach automatically, or null when a person should decide. */
export function autoMatchDecision(
  receipt: ReceiptCandidate,
  openTransactions: readonly TransactionCandidate[],
  aliases: readonly MerchantAlias[],
  settings: MatchSettings,
  declined: ReadonlySet<string> = new Set(),
): TransactionCandidate | null {
  if (!settings.autoMatch.enabled) return null;
  if (receipt.confidence.total < MIN_FIELD_CONFIDENCE) return null;
  if (receipt.confidence.cardLastFour < MIN_FIELD_CONFIDENCE) return null;
  // Rank two, whatever topN is, to know the margin over the runner-up. A runner-up can only break
  // the margin if it scores at least minScore - minMargin (the top needs minScore), so candidates
  // below that floor are irrelevant and skip the merchant comparison; the gap cut does not apply.
  const { minScore, minMargin } = settings.autoMatch;
  const ranked = suggestForReceipt(
    receipt,
    openTransactions,
    aliases,
    { ...settings, topN: 2, suggestThreshold: Math.max(0, minScore - minMargin), maxGapFromTop: 1 },
    declined,
  );
  const [top, second] = ranked;
  if (top === undefined) return null;
  const { score } = top;
  if (!score.exactAmount || !score.sameCard) return null;
  if (receipt.currency !== top.candidate.currency) return null;
  if (score.components.date === null || score.components.date < 0.5) return null;
  if (top.candidate.status !== 'booked') return null;
  if (score.score < minScore) return null;
  if (second !== undefined && score.score - second.score.score < minMargin) return null;
  if (inSeries(top.candidate, openTransactions)) return null;
  return top.candidate;
}
