import { Type } from 'typebox';
import { checkTaxRate } from '../../books/allocations.ts';
import { ensureChart } from '../../books/categories.ts';
import { AppError, notFound, revisionConflict } from '../../contract/errors.ts';
import { Id, IdempotencyKey, Revision, SingleLineText } from '../../contract/formats.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { dbBool } from '../../db/values.ts';
import { newId } from '../../lib/ids.ts';
import { defineOperation } from '../define.ts';
import { Category, CategoryKind, toCategory } from './schema.ts';

const codeTaken = () =>
  new AppError('category_code_taken', 'Another category of the organization has this code.', {
    field: 'code',
  });

export const saveCategory = defineOperation({
  name: 'categories.save',
  summary: 'Add or change a category of the chart',
  description:
    'Without `id`: adds a category (`code`, `name`, `kind` required). With `id` and `expectedRevision`: changes its name, kind, default tax rate or active flag; the code never changes. Categories are deactivated, never deleted, so old entries keep theirs.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Type.Optional(Id('Category to change; omit to add one.')),
      expectedRevision: Type.Optional(Revision('The revision last read; required with id.')),
      code: Type.Optional(
        Type.String({
          pattern: '^[A-Za-z0-9._-]{1,20}$',
          description: 'Code, 1-20 letters, digits, dot, dash or underscore (new categories only).',
        }),
      ),
      name: Type.Optional(SingleLineText(1, 100, 'Name, 1-100 characters on one line.')),
      kind: Type.Optional(CategoryKind),
      defaultTaxRate: Type.Optional(
        Type.Union([Type.String({ pattern: '^(100|[0-9]{1,2})(\\.[0-9]{1,4})?$' }), Type.Null()], {
          description: 'Tax rate suggested for its allocations, percent; null clears it.',
        }),
      ),
      active: Type.Optional(Type.Boolean({ description: 'false deactivates it (changes only).' })),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Category,
  example: { id: '00000000-0000-0000-0000-000000000000', expectedRevision: 1, name: 'Software' },
  async run({ ctx, input }) {
    const now = ctx.clock.now().toISOString();
    await ensureChart(ctx.db, ctx.organizationId, now);
    if (input.defaultTaxRate) checkTaxRate(input.defaultTaxRate, 'defaultTaxRate');
    if (input.id === undefined) {
      for (const field of ['code', 'name', 'kind'] as const) {
        if (input[field] === undefined)
          throw new AppError('invalid_input', `${field} is required to add a category.`, { field });
      }
      if (input.expectedRevision !== undefined || input.active !== undefined) {
        const field = input.expectedRevision !== undefined ? 'expectedRevision' : 'active';
        throw new AppError('invalid_input', `${field} applies only to a change (with id).`, { field });
      }
      const row = {
        id: newId(),
        organization_id: ctx.organizationId,
        code: input.code ?? '',
        name: input.name ?? '',
        kind: input.kind ?? 'expense',
        default_tax_rate: input.defaultTaxRate ?? null,
        active: dbBool(true),
        revision: 1,
        created_at: now,
        updated_at: now,
      };
      const clash = await ctx.db
        .selectFrom('books_categories')
        .select('id')
        .where('organization_id', '=', ctx.organizationId)
        .where('code', '=', row.code)
        .executeTakeFirst();
      if (clash) throw codeTaken();
      try {
        await ctx.db.insertInto('books_categories').values(row).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw codeTaken();
        throw error;
      }
      await ctx.audit({ recordType: 'category', recordId: row.id, beforeRevision: null, afterRevision: 1 });
      const category = toCategory(row);
      await ctx.emit({
        type: 'category.saved',
        subject: { type: 'category', id: row.id },
        data: categoryData(category),
      });
      return category;
    }
    if (input.expectedRevision === undefined) {
      throw new AppError('invalid_input', 'expectedRevision is required with id.', {
        field: 'expectedRevision',
      });
    }
    if (input.code !== undefined)
      throw new AppError('invalid_input', 'The code of a category never changes.', { field: 'code' });
    const current = await ctx.db
      .selectFrom('books_categories')
      .selectAll()
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!current) throw notFound('Category', 'id');
    if (current.revision !== input.expectedRevision) throw revisionConflict(current.revision);
    const result = await ctx.db
      .updateTable('books_categories')
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.kind !== undefined ? { kind: input.kind } : {}),
        ...(input.defaultTaxRate !== undefined ? { default_tax_rate: input.defaultTaxRate } : {}),
        ...(input.active !== undefined ? { active: dbBool(input.active) } : {}),
        revision: current.revision + 1,
        updated_at: now,
      })
      .where('id', '=', current.id)
      .where('organization_id', '=', ctx.organizationId)
      .where('revision', '=', current.revision)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw revisionConflict(current.revision + 1);
    await ctx.audit({
      recordType: 'category',
      recordId: current.id,
      beforeRevision: current.revision,
      afterRevision: current.revision + 1,
    });
    const updated = await ctx.db
      .selectFrom('books_categories')
      .selectAll()
      .where('id', '=', current.id)
      .executeTakeFirstOrThrow();
    const category = toCategory(updated);
    await ctx.emit({
      type: 'category.saved',
      subject: { type: 'category', id: category.id },
      data: categoryData(category),
    });
    return category;
  },
});

function categoryData(category: Category): Record<string, unknown> {
  return {
    code: category.code,
    name: category.name,
    kind: category.kind,
    defaultTaxRate: category.default_tax_rate,
    active: category.active,
  };
}
