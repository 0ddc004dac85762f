// The seeded generator of the matching evaluation set: organizations of members with several cards,
// purchases that become a bank transaction and (usually) a receipt, and the hard cases of real
// books: tips, FX, pre-authorizations, refunds, subscriptions, daily coffees, colleagues paying at
// the same table, receipts with no transaction and transactions with no receipt.
//
// Deterministic: the same seed and size give the same set on every machine.
import { learnAlias } from '../../src/receipts/matching/similarity.ts';
import type { MerchantAlias } from '../../src/receipts/matching/types.ts';
import { addHardScenario } from './hard-scenarios.ts';
import { MERCHANTS } from './merchants.ts';
import { descriptorFor } from './noise.ts';
import { type Organization, OrgBuilder } from './org.ts';
import { seededRandom } from './random.ts';
import { addDistractors, addScenario } from './scenarios.ts';

export type { CaseKind, LabelledReceipt, Organization } from './org.ts';

/** The whole set: organizations of about 110 labelled pairs each until `pairs` is reached. */
export interface GenerateOptions {
  /** Transactions without a receipt, per labelled pair (cards used for things nobody files). */
  unfiledRatio?: number;
  /** Mix the harder cases of issue 26 (bench/matching-eval/hard-scenarios.ts) in, half of the time. */
  hard?: boolean;
}

export function generateEvalSet(seed: number, pairs: number, options: GenerateOptions = {}): Organization[] {
  const rnd = seededRandom(seed);
  const organizations: Organization[] = [];
  let labelled = 0;
  for (let o = 0; labelled < pairs; o++) {
    const org = new OrgBuilder(rnd, `s${seed}o${o}`);
    org.readerConfidences = options.hard === true;
    const target = Math.min(110, pairs - labelled);
    while (org.labelled() < target) {
      if (options.hard === true && rnd.chance(0.5)) addHardScenario(org);
      else addScenario(org);
    }
    addDistractors(org, options.unfiledRatio ?? 0.4);
    labelled += org.labelled();
    organizations.push({
      receipts: org.receipts,
      transactions: org.transactions,
      aliases: learnedAliases(org),
    });
  }
  return organizations;
}

/**
 * Aliases from earlier confirmations: for most merchants whose descriptor shares no word with the
 * receipt, a person once confirmed one of their charges. Learned from a fresh descriptor (an older
 * charge), never from the transaction under evaluation.
 */
function learnedAliases(org: OrgBuilder): MerchantAlias[] {
  const aliases: MerchantAlias[] = [];
  for (const merchant of MERCHANTS.filter((m) => m.needsAlias === true)) {
    if (!org.rnd.chance(0.7)) continue;
    const alias = learnAlias(descriptorFor(org.rnd, merchant, null), merchant.name);
    if (alias !== null) aliases.push(alias);
  }
  return aliases;
}
