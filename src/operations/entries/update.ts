import { Type } from 'typebox';
import { type Allocation, assertBalanced, checkTaxRate, includedTax } from '../../books/allocations.ts';
import { ensureChart } from '../../books/categories.ts';
import { AppError, revisionConflict } from '../../contract/errors.ts';
import { Id, IdempotencyKey, Revision, SignedMinor } from '../../contract/formats.ts';
import { asBool, asMinor } from '../../db/values.ts';
import { newId } from '../../lib/ids.ts';
import { defineOperation } from '../define.ts';
import { Entry } from './schema.ts';
import { loadEntry, requireEntry } from './store.ts';

const TaxRate = Type.String({
  pattern: '^(100|[0-9]{1,2})(\\.[0-9]{1,4})?$',
  description: 'Tax rate in percent, 0-100, at most 4 fraction digits ("13", "8.875").',
});

export const updateEntry = defineOperation({
  name: 'entries.update',
  summary: 'Categorize, split or review a ledger entry',
  description:
    'Replaces the allocations (they must sum exactly to the entry’s amount, else 400 `allocations_unbalanced`) and/or sets the review status. The amount, currency and date never change: they come from the bank or the invoice. A tax amount left out is computed from the rate (tax included in the gross amount).',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Entry id.'),
      expectedRevision: Revision(),
      allocations: Type.Optional(
        Type.Array(
          Type.Object(
            {
              categoryId: Id('Category (categories.list).'),
              amountMinor: SignedMinor('Gross amount of the line, tax included.'),
              taxRate: Type.Optional(TaxRate),
              taxMinor: Type.Optional(
                SignedMinor('Tax inside the amount; computed from taxRate when omitted.'),
              ),
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: 50, description: '1-50 lines that sum exactly to the entry amount.' },
        ),
      ),
      reviewStatus: Type.Optional(
        Type.Union([Type.Literal('unreviewed'), Type.Literal('reviewed')], {
          description: 'unreviewed or reviewed.',
        }),
      ),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Entry,
  example: { id: '00000000-0000-0000-0000-000000000000', expectedRevision: 1, reviewStatus: 'reviewed' },
  async run({ ctx, input }) {
    const current = await requireEntry(ctx.db, ctx.organizationId, input.id);
    if (current.revision !== input.expectedRevision) throw revisionConflict(current.revision);
    const now = ctx.clock.now().toISOString();
    let allocations: Allocation[] | undefined;
    if (input.allocations) {
      await ensureChart(ctx.db, ctx.organizationId, now);
      const categories = await ctx.db
        .selectFrom('books_categories')
        .select(['id', 'active'])
        .where('organization_id', '=', ctx.organizationId)
        .where(
          'id',
          'in',
          input.allocations.map((a) => a.categoryId),
        )
        .execute();
      const active = new Set(categories.filter((c) => asBool(c.active)).map((c) => c.id));
      allocations = input.allocations.map((a, index) => {
        if (!active.has(a.categoryId)) {
          throw new AppError('invalid_input', `allocations.${index}.categoryId is not an active category.`, {
            field: `allocations.${index}.categoryId`,
          });
        }
        const taxRate = a.taxRate ?? '0';
        checkTaxRate(taxRate, `allocations.${index}.taxRate`);
        const amountMinor = BigInt(a.amountMinor);
        return {
          categoryId: a.categoryId,
          amountMinor,
          taxRate,
          taxMinor: a.taxMinor === undefined ? includedTax(amountMinor, taxRate) : BigInt(a.taxMinor),
        };
      });
      assertBalanced(asMinor(current.amount_minor), allocations);
    }
    const reviewStatus = input.reviewStatus ?? current.review_status;
    const result = await ctx.db
      .updateTable('ledger_entries')
      .set({ review_status: reviewStatus, revision: current.revision + 1, updated_at: now })
      .where('id', '=', current.id)
      .where('organization_id', '=', ctx.organizationId)
      .where('revision', '=', current.revision)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) {
      throw revisionConflict((await requireEntry(ctx.db, ctx.organizationId, input.id)).revision);
    }
    if (allocations) {
      await ctx.db.deleteFrom('ledger_allocations').where('entry_id', '=', current.id).execute();
      await ctx.db
        .insertInto('ledger_allocations')
        .values(
          allocations.map((a, position) => ({
            id: newId(),
            organization_id: ctx.organizationId,
            entry_id: current.id,
            position,
            category_id: a.categoryId,
            amount_minor: a.amountMinor.toString(),
            tax_rate: a.taxRate,
            tax_minor: a.taxMinor.toString(),
          })),
        )
        .execute();
    }
    await ctx.audit({
      recordType: 'entry',
      recordId: current.id,
      beforeRevision: current.revision,
      afterRevision: current.revision + 1,
    });
    const entry = await loadEntry(ctx.db, ctx.organizationId, current.id);
    const data = {
      date: entry.date,
      amountMinor: entry.amount_minor,
      currency: entry.currency,
      reviewStatus: entry.review_status,
      categoryCodes: entry.allocations.map((a) => a.category_code),
    };
    if (allocations)
      await ctx.emit({ type: 'entry.updated', subject: { type: 'entry', id: entry.id }, data });
    if (reviewStatus === 'reviewed' && current.review_status !== 'reviewed') {
      await ctx.emit({ type: 'entry.reviewed', subject: { type: 'entry', id: entry.id }, data });
    }
    return entry;
  },
});
