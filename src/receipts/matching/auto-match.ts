// The auto-match rule. Auto-matching attaches a receipt without a person looking, so it accepts
// only what is close to proof: the same amount to the cent in the same currency, charged to the
// card printed on the receipt, inside the booking window, and clearly ahead of any alternative.
import { daysBetween } from './components.ts';
import { suggestForReceipt } from './suggest.ts';
import type { MatchSettings, MerchantAlias, ReceiptCandidate, TransactionCandidate } from './types.ts';

/** Extraction confidence below this on the total or card makes a field unfit for auto-matching... */
const MIN_FIELD_CONFIDENCE = 0.9;
/**
 * ...unless the merchant agrees too (component at least CORROBORATING_MERCHANT): then digits read
 * from a text PDF (card 0.85, total 0.75-0.9) or a photo (the same times 0.85) are enough. A
 * misread total or card can only produce a wrong match by turning into another open charge's exact
 * amount on another of the organization's cards, at the same merchant, in the window, with no rival.
 */
const MIN_CORROBORATED_CONFIDENCE = 0.7;
const CORROBORATING_MERCHANT = 0.85;

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
  const weakest = Math.min(receipt.confidence.total, receipt.confidence.cardLastFour);
  if (weakest < MIN_CORROBORATED_CONFIDENCE) return null;
  // Rank two, whatever topN is, to know the margin over the runner-up. A runner-up can only break
  // the margin if it scores at least minScore - minMargin (the top needs minScore), so candidates
  // below that floor are irrelevant and skip the merchant comparison; the gap cut does not apply.
  const { minScore, minMargin } = settings.autoMatch;
  // A weaker reading may win below minScore (see below): look further down for its runner-up.
  const floor = minScore - minMargin - (weakest < MIN_FIELD_CONFIDENCE ? 0.2 : 0);
  const ranked = suggestForReceipt(
    receipt,
    openTransactions,
    aliases,
    { ...settings, topN: 2, suggestThreshold: Math.max(0, floor), maxGapFromTop: 1 },
    declined,
  );
  const [top, second] = ranked;
  if (top === undefined) return null;
  const { score } = top;
  if (!score.exactAmount || !score.sameCard) return null;
  const corroborated = (score.components.merchant ?? 0) >= CORROBORATING_MERCHANT;
  if (weakest < MIN_FIELD_CONFIDENCE && !corroborated) return null;
  if (receipt.currency !== top.candidate.currency) return null;
  if (score.components.date === null || score.components.date < 0.5) return null;
  if (top.candidate.status !== 'booked') return null;
  // The score shrinks every component toward neutral by the reader's confidence, so a photo whose
  // every field agrees lands near 0.83: there the agreement of amount, card, merchant and date is
  // the proof, and the margin over the runner-up still applies.
  if (score.score < minScore && !(corroborated && score.components.date >= 0.7)) return null;
  if (second !== undefined && score.score - second.score.score < minMargin) return null;
  if (inSeries(top.candidate, openTransactions)) return null;
  return top.candidate;
}
