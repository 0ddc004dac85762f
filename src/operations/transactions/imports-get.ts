import { Type } from 'typebox';
import { notFound } from '../../contract/errors.ts';
import { Id } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { StatementImport } from './schema.ts';
import { JOB_COLUMNS, toStatementImport } from './store.ts';

export const getImport = defineOperation({
  name: 'transactions.imports.get',
  summary: 'Poll a statement import',
  description:
    'State (queued, running, succeeded, failed), counts that grow while it runs (read, added, duplicates, rejected, pending), rejected lines with reasons, and the error of a failed file.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    { id: Id('Import job id (transactions.imports.create).') },
    { additionalProperties: false },
  ),
  output: StatementImport,
  example: { id: '00000000-0000-0000-0000-000000000000' },
  async run({ ctx, input }) {
    const row = await ctx.db
      .selectFrom('books_jobs')
      .select(JOB_COLUMNS)
      .where('organization_id', '=', ctx.organizationId)
      .where('kind', '=', 'statement_import')
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!row) throw notFound('Import', 'id');
    return toStatementImport(row);
  },
});
