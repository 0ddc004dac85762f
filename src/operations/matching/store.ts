import type { Kysely, Selectable } from 'kysely';
import { notFound, revisionConflict } from '../../contract/errors.ts';
import type { Database } from '../../db/schema.ts';
import type { MatchSuggestionsTable } from '../../db/tables/receipts.ts';
import { asIso, asJson } from '../../db/values.ts';
import type { MatchComponents } from '../../receipts/matching/types.ts';
import type { MatchSuggestion } from './schema.ts';

export type SuggestionRow = Selectable<MatchSuggestionsTable>;

interface Details {
  components: MatchComponents;
  reasons: string[];
  exactAmount: boolean;
  sameCard: boolean;
}

export function toSuggestion(row: SuggestionRow): MatchSuggestion {
  const d = asJson<Details>(row.details);
  return {
    id: row.id,
    receipt_id: row.receipt_id,
    transaction_id: row.transaction_id,
    score: row.score / 1000,
    components: d.components,
    reasons: d.reasons,
    exact_amount: d.exactAmount,
    same_card: d.sameCard,
    state: row.state as MatchSuggestion['state'],
    revision: row.revision,
    created_at: asIso(row.created_at),
    updated_at: asIso(row.updated_at),
  };
}

export async function requireSuggestion(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  expectedRevision: number,
): Promise<SuggestionRow> {
  const row = await db
    .selectFrom('match_suggestions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Suggestion', 'id');
  if (row.revision !== expectedRevision) throw revisionConflict(row.revision);
  return row;
}

export async function loadSuggestion(db: Kysely<Database>, id: string): Promise<SuggestionRow> {
  return db.selectFrom('match_suggestions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
