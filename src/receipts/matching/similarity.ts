// Merchant similarity between a receipt's merchant and a bank descriptor.
//
// Token based: every word of the receipt's merchant looks for its best partner among the
// descriptor's words. Partners count fully when equal, nearly fully when the descriptor word is a
// prefix of at least 3 letters (the bank cut the line), and by Jaro-Winkler when OCR garbled a
// letter or two. A second pass compares the words run together, for `BLUEBOTTLE` vs `Blue Bottle`.
import { descriptorTokens, merchantTokens, normalizeMerchant, processorPrefixTokens } from './descriptor.ts';
import type { MerchantAlias } from './types.ts';
import { GENERIC_WORDS } from './word-lists.ts';

/** Jaro-Winkler similarity of two strings, 0..1. */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatched = new Array<boolean>(a.length).fill(false);
  const bMatched = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(b.length - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (bMatched[j] || a[i] !== b[j]) continue;
      aMatched[i] = true;
      bMatched[j] = true;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < a.length; i++) {
    if (!aMatched[i]) continue;
    while (!bMatched[k]) k++;
    if (a[i] !== b[k]) transpositions++;
    k++;
  }
  const jaro = (matches / a.length + matches / b.length + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** Below this a garbled word is treated as a different word (tuned on the development split). */
const TYPO_FLOOR = 0.88;

/**
 * A descriptor cut at 22-25 characters leaves the last word as a prefix. Three letters stand for a
 * word only when they are most of it: `pay` is not `paypal` (`T-MOBILE*AUTO PAY`), `sta` is no brand.
 */
function isCutPrefix(receiptWord: string, descriptorWord: string): boolean {
  if (!receiptWord.startsWith(descriptorWord)) return false;
  return descriptorWord.length >= 4 || (descriptorWord.length === 3 && receiptWord.length <= 4);
}

function wordSimilarity(receiptWord: string, descriptorWord: string): number {
  if (receiptWord === descriptorWord) return 1;
  if (isCutPrefix(receiptWord, descriptorWord)) return 0.95;
  // One word the start of the other is another word (`pay`, `paypal`), not a letter garbled by OCR.
  if (receiptWord.startsWith(descriptorWord) || descriptorWord.startsWith(receiptWord)) return 0;
  const jw = jaroWinkler(receiptWord, descriptorWord);
  return jw >= TYPO_FLOOR ? jw : 0;
}

const weightOf = (word: string): number => (GENERIC_WORDS.has(word) ? 0.3 : 1) * word.length;

/** Share of `from`'s letters that find a partner in `to`, generic words weighing less. */
function coverage(from: readonly string[], to: readonly string[], flip: boolean): number {
  let total = 0;
  let found = 0;
  for (const word of from) {
    let best = 0;
    for (const other of to) {
      const s = flip ? wordSimilarity(other, word) : wordSimilarity(word, other);
      if (s > best) best = s;
    }
    total += weightOf(word);
    found += weightOf(word) * best;
  }
  return total === 0 ? 0 : found / total;
}

/**
 * A distinctive word both sides share: the brand in `Netflix International B.V.` vs `NETFLIX.COM`,
 * where the legal name carries words the descriptor never prints. Two-letter brands (`DM`) must be
 * the first word of both and equal.
 */
function sharedAnchor(merchant: readonly string[], descriptor: readonly string[]): number {
  let best = 0;
  for (const [i, word] of merchant.entries()) {
    if (GENERIC_WORDS.has(word)) continue;
    if (word.length < 3) {
      if (i === 0 && descriptor[0] === word) best = 1;
      continue;
    }
    for (const other of descriptor) {
      if (other.length < 3 || GENERIC_WORDS.has(other)) continue;
      const s = wordSimilarity(word, other);
      if (s > best) best = s;
    }
  }
  return best;
}

/**
 * `sgc` for `sightglass coffee`, `dtf` for `din tai fung`: the descriptor's first word spells the
 * merchant's words in order, each word giving its first letter and maybe more of its own letters.
 * Only for names of two words or more, codes of 2-5 letters, every word represented.
 */
export function isAbbreviation(code: string, merchant: readonly string[]): boolean {
  if (merchant.length < 2 || code.length < merchant.length || code.length > 5 || !/^[a-z]+$/.test(code))
    return false;
  const spell = (c: number, w: number): boolean => {
    if (w === merchant.length) return c === code.length;
    const word = merchant[w] ?? '';
    if (code[c] !== word[0]) return false;
    // This word gives its first letter and then 0..n more of its letters in order.
    let at = c + 1;
    if (spell(at, w + 1)) return true;
    for (let i = 1; i < word.length && at < code.length; i++) {
      if (word[i] === code[at]) {
        at++;
        if (spell(at, w + 1)) return true;
      }
    }
    return false;
  };
  return spell(0, 0);
}

/** What an abbreviation counts as: good evidence, short of the spelled-out name. */
const ABBREVIATION = 0.85;

/** Similarity of two token lists: mostly how much of the merchant the descriptor covers. */
export function tokenSimilarity(merchant: readonly string[], descriptor: readonly string[]): number {
  if (merchant.length === 0 || descriptor.length === 0) return 0;
  // Only the descriptor's leading words name the merchant; the rest is location noise.
  const lead = descriptor.slice(0, Math.max(merchant.length, 1));
  const forward = coverage(merchant, descriptor, false);
  const backward = coverage(lead, merchant, true);
  const tokenScore = 0.7 * forward + 0.3 * backward;
  const anchor = sharedAnchor(merchant, descriptor);
  // A shared brand word is strong evidence; full coverage of both names adds the rest.
  const anchored = anchor >= TYPO_FLOOR ? anchor * (0.8 + 0.2 * tokenScore) : 0;
  const joinedMerchant = merchant.join('');
  const joinedDescriptor = descriptor.join('');
  // Run-together names: compare against the descriptor's beginning of the same length.
  const joinedScore =
    joinedMerchant.length >= 4
      ? jaroWinkler(joinedMerchant, joinedDescriptor.slice(0, joinedMerchant.length))
      : 0;
  const first = descriptor[0] ?? '';
  const abbreviation = first.length <= 5 && isAbbreviation(first, merchant) ? ABBREVIATION : 0;
  return Math.max(tokenScore, anchored, joinedScore >= 0.92 ? joinedScore : 0, abbreviation);
}

export interface MerchantEvidence {
  value: number;
  /** The learned alias that decided it, if one did. */
  alias: MerchantAlias | null;
}

/**
 * The descriptor starts with the pattern's words as far as it has words; its last word may be cut
 * short by the bank.
 */
function aliasApplies(alias: MerchantAlias, descriptor: readonly string[]): boolean {
  const pattern = alias.pattern.split(' ');
  if (descriptor.length === 0) return false;
  return pattern.every((word, i) => {
    const seen = descriptor[i];
    if (seen === undefined) return i > 0;
    return seen === word || (i === descriptor.length - 1 && seen.length >= 3 && word.startsWith(seen));
  });
}

/** Merchant evidence with the alias that produced it, for explanations. */
export function merchantEvidence(
  receiptMerchant: string,
  transactionDescription: string,
  aliases: readonly MerchantAlias[],
  merchantClean: string | null = null,
): MerchantEvidence {
  const merchant = merchantTokens(receiptMerchant);
  let value = tokenSimilarity(merchant, descriptorTokens(transactionDescription));
  // A receipt from the processor itself (PayPal's own receipt) names what the prefix says.
  const prefix = processorPrefixTokens(transactionDescription);
  if (prefix.length > 0) value = Math.max(value, tokenSimilarity(merchant, prefix));
  if (merchantClean !== null)
    value = Math.max(value, tokenSimilarity(merchant, merchantTokens(merchantClean)));
  if (value >= 0.99 || aliases.length === 0) return { value, alias: null };
  const descriptor = descriptorTokens(transactionDescription);
  const normalizedMerchant = normalizeMerchant(receiptMerchant);
  let best: MerchantEvidence = { value, alias: null };
  for (const alias of aliases) {
    if (!aliasApplies(alias, descriptor)) continue;
    // The receipt may spell the learned merchant slightly differently (OCR), so compare softly.
    const s =
      tokenSimilarity(merchant, alias.merchant.split(' ')) *
      (alias.merchant === normalizedMerchant ? 1 : 0.98);
    if (s > best.value) best = { value: s, alias };
  }
  return best;
}

/** 0..1 similarity of a receipt's merchant to a bank descriptor, learned aliases included. */
export function merchantSimilarity(
  receiptMerchant: string,
  transactionDescription: string,
  aliases: readonly MerchantAlias[],
): number {
  return merchantEvidence(receiptMerchant, transactionDescription, aliases).value;
}

/**
 * The alias to store when a person confirms that `transactionDescription` was `receiptMerchant`:
 * the normalized descriptor's first word, or first two when the first is short (`db vertrieb`),
 * since later words are often a city or a branch that changes from charge to charge; and the
 * normalized merchant. Null when either side has nothing left to learn from.
 */
export function learnAlias(transactionDescription: string, receiptMerchant: string): MerchantAlias | null {
  const words = descriptorTokens(transactionDescription);
  const first = words[0] ?? '';
  const pattern = first.length >= 4 ? first : words.slice(0, 2).join(' ');
  const merchant = normalizeMerchant(receiptMerchant);
  if (pattern.length < 3 || merchant.length < 2) return null;
  return { pattern, merchant };
}
