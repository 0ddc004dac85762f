// Suggestion time of the engine alone (no database), run by hand (results go to docs/benchmarks.md):
//
//   node --import tsx bench/matching-time.ts [--open 100000] [--receipts 300]
//
// An organization with `--open` open transactions spread over 150 days. The service hands the
// engine at most 2,000 of them (the newest within -10..+30 days of the receipt's date,
// src/receipts/processing/candidates.ts); this times what the engine does with that slice: the
// single suggestions, the charge sets, and the auto-match decision, per receipt, p50 and p99.
// The database read of the slice is not timed here.
import { parseArgs } from 'node:util';
import { autoMatchDecision } from '../src/receipts/matching/auto-match.ts';
import { suggestChargeSets } from '../src/receipts/matching/groups.ts';
import { suggestForReceipt } from '../src/receipts/matching/suggest.ts';
import type { TransactionCandidate } from '../src/receipts/matching/types.ts';
import { evalSettings } from './matching-eval/evaluate.ts';
import { generateEvalSet } from './matching-eval/generate.ts';

const { values } = parseArgs({
  options: { open: { type: 'string', default: '100000' }, receipts: { type: 'string', default: '300' } },
});
const open = Number(values.open);
const set = generateEvalSet(201, Math.ceil(open / 1.7), { hard: true, unfiledRatio: 0.7 });
const all: TransactionCandidate[] = set.flatMap((o) => o.transactions).slice(0, open);
const receipts = set.flatMap((o) => o.receipts.map((r) => r.receipt)).slice(0, Number(values.receipts));
const byDate = [...all].sort((a, b) => (a.bookedDate < b.bookedDate ? 1 : -1));
const shift = (d: string, n: number) =>
  new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const auto = { ...evalSettings, autoMatch: { ...evalSettings.autoMatch, enabled: true } };

const times: number[] = [];
for (const receipt of receipts) {
  const date = receipt.date ?? '2026-05-01';
  const slice = byDate
    .filter((t) => t.bookedDate >= shift(date, -10) && t.bookedDate <= shift(date, 30))
    .slice(0, 2000);
  const start = process.hrtime.bigint();
  suggestForReceipt(receipt, slice, [], evalSettings);
  suggestChargeSets(receipt, slice, [], evalSettings);
  autoMatchDecision(receipt, slice, [], auto);
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]?.toFixed(2);
console.log(
  `${all.length} open transactions, ${times.length} receipts: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms per receipt`,
);
