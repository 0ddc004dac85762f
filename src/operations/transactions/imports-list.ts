import { Type } from 'typebox';
import { Id, Limit, Offset } from '../../contract/formats.ts';
import { requireAccount } from '../accounts/store.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { StatementImportSummary } from './schema.ts';
import { JOB_COLUMNS, toStatementImport } from './store.ts';

/** Every job column but the rejected lines (up to 1000 per import: transactions.imports.get has them). */
const SUMMARY_COLUMNS = JOB_COLUMNS.filter((column) => column !== 'rejected');

export const listImports = defineOperation({
  name: 'transactions.imports.list',
  summary: "List an account's statement imports, newest first",
  description:
    'The import history of one account: each import with its state and counts (read, added, duplicates, rejected, pending; they grow while it runs) and the error of a failed file. Offset pagination, newest upload first, then by id. The rejected lines of one import are in transactions.imports.get.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      accountId: Id('The account whose imports are listed.'),
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(StatementImportSummary, 'The page of imports, newest upload first, then by id.'),
  example: { accountId: '00000000-0000-0000-0000-000000000000', limit: 30 },
  async run({ ctx, input }) {
    await requireAccount(ctx.db, ctx.organizationId, input.accountId, 'accountId');
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    const rows = await ctx.db
      .selectFrom('books_jobs')
      .select(SUMMARY_COLUMNS)
      .where('account_id', '=', input.accountId)
      .where('organization_id', '=', ctx.organizationId)
      .where('kind', '=', 'statement_import')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    return offsetPage(
      rows.map((row) => {
        const { rejected: _, ...summary } = toStatementImport({ ...row, rejected: '[]' });
        return summary;
      }),
      limit,
      offset,
    );
  },
});
