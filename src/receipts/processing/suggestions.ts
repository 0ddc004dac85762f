import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { dbJson } from '../../db/values.ts';
import { newId } from '../../lib/ids.ts';
import type { UnitOfWork } from '../../unit/unit-of-work.ts';
import { autoMatchDecision } from '../matching/auto-match.ts';
import { expectedChargeDate } from '../matching/components.ts';
import { suggestForReceipt, suggestForTransaction } from '../matching/suggest.ts';
import { defaultMatchSettings, type MatchScore } from '../matching/types.ts';
import { attachReceipt } from './attach.ts';
import {
  declinedPairs,
  matchSettings,
  merchantAliases,
  openTransactions,
  receiptCandidateById,
  waitingReceipts,
} from './candidates.ts';
import { withRates } from './rates.ts';

/** What a stored suggestion keeps of its score: components and reasons, for the reviewer. */
function details(score: MatchScore) {
  return {
    components: score.components,
    reasons: score.reasons,
    exactAmount: score.exactAmount,
    sameCard: score.sameCard,
  };
}

/**
 * Records (or refreshes) an open suggestion for a pair. A declined or confirmed pair is left
 * alone: a declined pair is never suggested again.
 */
async function upsertSuggestion(
  db: Kysely<Database>,
  organizationId: string,
  receiptId: string,
  transactionId: string,
  score: MatchScore,
  now: string,
): Promise<void> {
  const existing = await db
    .selectFrom('match_suggestions')
    .select(['id', 'state', 'revision'])
    .where('organization_id', '=', organizationId)
    .where('receipt_id', '=', receiptId)
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
  const perMille = Math.round(score.score * 1000);
  if (!existing) {
    await db
      .insertInto('match_suggestions')
      .values({
        id: newId(),
        organization_id: organizationId,
        receipt_id: receiptId,
        transaction_id: transactionId,
        score: perMille,
        details: dbJson(details(score)),
        state: 'open',
        decided_by: null,
        decided_at: null,
        revision: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return;
  }
  if (existing.state !== 'open') return;
  await db
    .updateTable('match_suggestions')
    .set({ score: perMille, details: dbJson(details(score)), updated_at: now })
    .where('id', '=', existing.id)
    .execute();
}

/**
 * A receipt was read: suggest open transactions for it, then auto-match when the organization
 * turned it on and the rule accepts (exact amount, same card, clear margin). Returns the number
 * of suggestions and whether it was matched.
 */
export async function matchNewReceipt(
  unit: UnitOfWork,
  receiptId: string,
): Promise<{ suggestions: number; autoMatched: boolean }> {
  const { db, organizationId } = unit;
  const receipt = await receiptCandidateById(db, organizationId, receiptId);
  if (!receipt) return { suggestions: 0, autoMatched: false };
  const [open, aliases, orgSettings, declined] = await Promise.all([
    // A subscription invoice's charge is looked for around its period's start, not its printed date.
    openTransactions(db, organizationId, expectedChargeDate(receipt, defaultMatchSettings)),
    merchantAliases(db, organizationId),
    matchSettings(db, organizationId),
    declinedPairs(db, organizationId, { receiptId }),
  ]);
  const settings = await withRates(db, organizationId, orgSettings, [receipt], open);
  const auto = autoMatchDecision(receipt, open, aliases, settings, declined);
  if (auto) {
    await attachReceipt(unit, { receiptId, transactionId: auto.id }, 'auto');
    return { suggestions: 0, autoMatched: true };
  }
  const now = unit.clock.now().toISOString();
  const ranked = suggestForReceipt(receipt, open, aliases, settings, declined);
  for (const s of ranked) await upsertSuggestion(db, organizationId, receiptId, s.candidate.id, s.score, now);
  return { suggestions: ranked.length, autoMatched: false };
}

/** A transaction arrived: suggest waiting receipts for it (and auto-match as for a receipt). */
export async function matchNewTransaction(
  unit: UnitOfWork,
  transaction: Parameters<typeof suggestForTransaction>[0],
): Promise<number> {
  const { db, organizationId } = unit;
  const [waiting, aliases, orgSettings, declined] = await Promise.all([
    waitingReceipts(db, organizationId, transaction.bookedDate),
    merchantAliases(db, organizationId),
    matchSettings(db, organizationId),
    declinedPairs(db, organizationId, { transactionId: transaction.id }),
  ]);
  const settings = await withRates(db, organizationId, orgSettings, waiting, [transaction]);
  const ranked = suggestForTransaction(transaction, waiting, aliases, settings, declined);
  const now = unit.clock.now().toISOString();
  for (const s of ranked) {
    if (settings.autoMatch.enabled) {
      // The receipt-side rule decides, over every open transaction near the receipt: the new one
      // must win clearly against the others, not only be a good pair.
      const open = await openTransactions(
        db,
        organizationId,
        expectedChargeDate(s.candidate, defaultMatchSettings),
      );
      const ranking = await withRates(db, organizationId, settings, [s.candidate], open);
      const auto = autoMatchDecision(s.candidate, open, aliases, ranking, declined);
      if (auto?.id === transaction.id) {
        await attachReceipt(unit, { receiptId: s.candidate.id, transactionId: transaction.id }, 'auto');
        return 1;
      }
    }
    await upsertSuggestion(db, organizationId, s.candidate.id, transaction.id, s.score, now);
  }
  return ranked.length;
}
