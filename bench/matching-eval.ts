// Matching accuracy evaluation, run by hand (results go to docs/benchmarks.md):
//
//   node --import tsx bench/matching-eval.ts [--pairs 600] [--dev-seed 1] [--holdout-seed 2] [--errors]
//   node --import tsx bench/matching-eval.ts --hard --dev-seed 101 --holdout-seed 201
//
// `--hard` mixes in the cases of issue 26 (bench/matching-eval/hard-scenarios.ts). Its seed family
// 101-199 is the one tuned on; 201-299 is held out and is what docs/benchmarks.md reports.
//
// Generates two labelled sets with bench/matching-eval/generate.ts: the development split (the only
// one the weights and thresholds were tuned on) and a held-out split from another seed, and prints
// for both: recall@1 and @3, precision of suggestions, and auto-match precision and coverage with
// auto-match turned on. Ablations show what card digits and learned aliases contribute; a crowded
// variant (5x as many transactions that have no receipt) shows how precision holds up.
import { parseArgs } from 'node:util';
import {
  CONFIDENT,
  evalSettings,
  evaluate,
  type Metrics,
  withoutAliases,
  withoutCards,
} from './matching-eval/evaluate.ts';
import { generateEvalSet } from './matching-eval/generate.ts';
import { EUR_RATES } from './matching-eval/merchants.ts';
import type { Organization } from './matching-eval/org.ts';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '600' },
    'dev-seed': { type: 'string', default: '1' },
    'holdout-seed': { type: 'string', default: '2' },
    errors: { type: 'boolean', default: false },
    // The harder set of issue 26: tuned on the dev family, reported on the held-out family.
    hard: { type: 'boolean', default: false },
  },
});

/**
 * Dated reference tables as the rates job would store them: one per booking date of the set, at
 * the generator's mid rates (it moves each purchase's rate by up to ±1 %, not the rate of a day).
 */
function datedTables(set: readonly Organization[]) {
  const perEur = Object.fromEntries(Object.entries(EUR_RATES).map(([code, eur]) => [code, 1 / eur]));
  const dates = new Set(set.flatMap((org) => org.transactions.map((tx) => tx.bookedDate)));
  return [...dates].map((date) => ({ date, source: 'generator', perEur }));
}

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

function row(name: string, m: Metrics): string {
  return `| ${name} | ${m.labelled} / ${m.distractors} / ${m.transactions} | ${pct(m.recallAt1)} | ${pct(m.recallAt3)} | ${pct(m.recallAt1ReadRight)} / ${pct(m.recallAt3ReadRight)} | ${pct(m.topPrecision)} | ${pct(m.suggestionPrecision)} | ${m.distractorsSuggested} (${m.distractorsConfident} ≥ ${CONFIDENT}) | ${pct(m.reverseRecallAt3)} | ${pct(m.autoMatchPrecision)} (${m.autoMatched}) | ${pct(m.autoMatchCoverage)} |`;
}

const pairs = Number(values.pairs);
console.log(
  '| split | labelled / distractor receipts / transactions | recall@1 | recall@3 | read right: recall@1 / @3 | top-1 precision | suggestion precision | distractors shown a suggestion | reverse recall@3 | auto-match precision (n) | auto-match coverage |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
const splits: Array<[string, number]> = [
  [`development (seed ${values['dev-seed']})`, Number(values['dev-seed'])],
  [`held-out (seed ${values['holdout-seed']})`, Number(values['holdout-seed'])],
];
const details: string[] = [];
for (const [name, seed] of splits) {
  const hard = values.hard;
  const set = generateEvalSet(seed, pairs, { hard });
  const metrics = evaluate(set, evalSettings);
  console.log(row(name, metrics));
  console.log(row(`${name}, no card digits on receipts`, evaluate(withoutCards(set), evalSettings)));
  console.log(row(`${name}, no learned aliases`, evaluate(withoutAliases(set), evalSettings)));
  // What the service runs with today: no configured rates, the bundled reference table only.
  const bundled = { ...evalSettings, approximateRates: {} };
  console.log(row(`${name}, no configured rates (bundled table)`, evaluate(set, bundled)));
  const dated = { ...bundled, datedRates: datedTables(set) };
  console.log(row(`${name}, no configured rates, dated tables of every day`, evaluate(set, dated)));
  const none = { ...bundled, referenceRates: null };
  console.log(row(`${name}, no rates at all`, evaluate(set, none)));
  const crowded = generateEvalSet(seed, pairs, { unfiledRatio: 2, hard });
  console.log(row(`${name}, 5× more transactions without receipt`, evaluate(crowded, evalSettings)));
  const kinds = Object.entries(metrics.recallAt3ByKind)
    .map(([kind, k]) => `${kind} ${pct(k.recallAt1)}/${pct(k.recall)} (n=${k.n})`)
    .join(', ');
  details.push(`${name} recall@1/@3 by case: ${kinds}`);
  details.push(
    `${name} with set suggestions: recall@1 ${pct(metrics.recallAt1WithSets)}, @3 ${pct(metrics.recallAt3WithSets)}; read right ${pct(metrics.recallAt1ReadRightWithSets)} / ${pct(metrics.recallAt3ReadRightWithSets)}`,
  );
  if (values.errors) details.push(...metrics.autoMatchErrors.map((e) => `  auto-match error: ${e}`));
}
console.log(`\n${details.join('\n')}`);
