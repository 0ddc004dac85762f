import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { asMinor } from '../db/values.ts';
import { dedupeText } from './merchant.ts';

/** What the dedupe compares of a statement line. */
export interface DedupeLine {
  bookedDate: string;
  amountMinor: bigint;
  description: string;
  bankReference: string | null;
}

interface Existing {
  id: string;
  booked_date: string;
  amount: bigint;
  text: string;
  bank_reference: string | null;
}

const DAY_MS = 86_400_000;

function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

function daysBetween(a: string, b: string): number {
  return Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / DAY_MS;
}

/**
 * Whether every line has a bank reference and, for each reference, the existing transactions with
 * it not yet matched are at least as many as the batch's lines with it: then each line is a
 * duplicate by reference (the first rule), whatever the order, and none looks further.
 */
function coveredByReferences(
  lines: readonly DedupeLine[],
  byRef: ReadonlyArray<{ id: string; bank_reference: string | null }>,
  used: ReadonlySet<string>,
): boolean {
  const wanted = new Map<string, number>();
  for (const line of lines) {
    if (!line.bankReference) return false;
    wanted.set(line.bankReference, (wanted.get(line.bankReference) ?? 0) + 1);
  }
  for (const row of byRef) {
    if (row.bank_reference === null || used.has(row.id)) continue;
    const left = wanted.get(row.bank_reference);
    if (left !== undefined) wanted.set(row.bank_reference, left - 1);
  }
  for (const left of wanted.values()) if (left > 0) return false;
  return true;
}

/**
 * Finds lines that are already in the account (docs/books.md, "Dedupe"), in the spirit of
 * Actual Budget's reconcileTransactions:
 * 1. a line with a bank reference is a duplicate of a transaction with the same reference;
 * 2. otherwise of a transaction with the same amount and the same description (case and spaces
 *    folded) booked within `windowDays` days, the nearest date first, that has no bank reference
 *    or whose line has none (two different references are two different transactions).
 * Each existing transaction absorbs at most one line per import, so a statement with two identical
 * coffees re-imported is two duplicates, and one with a third, new, coffee adds that one. Only
 * transactions of earlier imports and manual ones count: lines of the same file never absorb each
 * other (they are what the bank says happened).
 */
export class Deduper {
  /** Existing transactions already matched by a line of this import. */
  private readonly used = new Set<string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly accountId: string,
    private readonly importId: string,
    private readonly windowDays: number,
  ) {}

  /** For each line of the batch, whether it is a duplicate (in order). */
  async duplicates(lines: readonly DedupeLine[]): Promise<boolean[]> {
    if (lines.length === 0) return [];
    const dates = lines.map((line) => line.bookedDate).sort();
    const refs = [...new Set(lines.flatMap((line) => (line.bankReference ? [line.bankReference] : [])))];
    const amounts = [...new Set(lines.map((line) => line.amountMinor.toString()))];
    const base = () =>
      this.db
        .selectFrom('bank_transactions')
        .select(['id', 'booked_date', 'amount_minor', 'dedupe_text', 'bank_reference'])
        .where('account_id', '=', this.accountId)
        .where((eb) => eb.or([eb('import_id', 'is', null), eb('import_id', '!=', this.importId)]));
    const byRef = refs.length > 0 ? await base().where('bank_reference', 'in', refs).execute() : [];
    // A batch whose every line has a reference with enough unmatched transactions of that reference
    // is decided by the references alone (a re-imported statement): no line reaches the comparison
    // by amount and text, so its read is skipped.
    const fuzzy = coveredByReferences(lines, byRef, this.used)
      ? []
      : await base()
          .where('amount_minor', 'in', amounts)
          .where('booked_date', '>=', shiftDate(dates[0] ?? '1970-01-01', -this.windowDays))
          .where('booked_date', '<=', shiftDate(dates.at(-1) ?? '1970-01-01', this.windowDays))
          .orderBy('booked_date')
          .orderBy('id')
          .execute();
    const toExisting = (row: (typeof fuzzy)[number]): Existing => ({
      id: row.id,
      booked_date: row.booked_date,
      amount: asMinor(row.amount_minor),
      text: row.dedupe_text,
      bank_reference: row.bank_reference,
    });
    const refCandidates = byRef
      .map(toExisting)
      .sort((a, b) => a.booked_date.localeCompare(b.booked_date) || a.id.localeCompare(b.id));
    // Candidates by amount and text, so each line looks only at its own few (dates ascending).
    const fuzzyCandidates = new Map<string, Existing[]>();
    for (const candidate of fuzzy.map(toExisting)) {
      const key = `${candidate.amount}|${candidate.text}`;
      const list = fuzzyCandidates.get(key);
      if (list) list.push(candidate);
      else fuzzyCandidates.set(key, [candidate]);
    }

    return lines.map((line) => {
      if (line.bankReference) {
        const hit = refCandidates.find(
          (c) => c.bank_reference === line.bankReference && !this.used.has(c.id),
        );
        if (hit) {
          this.used.add(hit.id);
          return true;
        }
      }
      const text = dedupeText(line.description);
      let best: Existing | undefined;
      let bestDistance = Number.POSITIVE_INFINITY;
      for (const candidate of fuzzyCandidates.get(`${line.amountMinor}|${text}`) ?? []) {
        if (this.used.has(candidate.id)) continue;
        if (line.bankReference && candidate.bank_reference && candidate.bank_reference !== line.bankReference)
          continue;
        const distance = daysBetween(candidate.booked_date, line.bookedDate);
        if (distance <= this.windowDays && distance < bestDistance) {
          best = candidate;
          bestDistance = distance;
        }
      }
      if (best) {
        this.used.add(best.id);
        return true;
      }
      return false;
    });
  }
}
