import type { Selectable, Updateable } from 'kysely';
import { notFound, revisionConflict } from '../../contract/errors.ts';
import type { ContractorsTable } from '../../db/tables/contractors.ts';
import type { OperationContext } from '../context.ts';
import { selectContractors } from './queries.ts';

export type ContractorRow = Selectable<ContractorsTable>;

/**
 * Loads the contractor a mutation is about to change: 404 when it is not in the caller's
 * organization, 409 when `expectedRevision` is stale. Checked before any other rule, so a caller
 * working from an old copy always learns that first.
 */
export async function loadForChange(
  ctx: OperationContext,
  id: string,
  expectedRevision: number,
  idField = 'id',
): Promise<ContractorRow> {
  const row = await ctx.db
    .selectFrom('contractors')
    .selectAll()
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Contractor', idField);
  if (row.revision !== expectedRevision) throw revisionConflict(row.revision);
  return row;
}

/**
 * Compare-and-set on the revision read by `loadForChange` (a concurrent writer in between makes
 * it a 409), +1 revision, and the audit row in the same transaction.
 */
export async function applyChange(
  ctx: OperationContext,
  row: ContractorRow,
  set: Updateable<ContractorsTable>,
): Promise<number> {
  const revision = row.revision + 1;
  const result = await ctx.db
    .updateTable('contractors')
    .set({ ...set, revision, updated_at: ctx.clock.now().toISOString() })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', row.id)
    .where('revision', '=', row.revision)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    const current = await ctx.db
      .selectFrom('contractors')
      .select('revision')
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', row.id)
      .executeTakeFirst();
    if (!current) throw notFound('Contractor', 'id');
    throw revisionConflict(current.revision);
  }
  await ctx.audit({
    recordType: 'contractor',
    recordId: row.id,
    beforeRevision: row.revision,
    afterRevision: revision,
  });
  return revision;
}

/** The contractor as the read operations see it (including anything joined in by `selectContractors`). */
export async function reloadContractor(ctx: OperationContext, id: string) {
  const row = await selectContractors(ctx.db, ctx.organizationId, ctx.clock.now())
    .where('c.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Contractor', 'id');
  return row;
}
