import { Type } from 'typebox';
import { readJobFile } from '../../books/jobs-queue.ts';
import { AppError, notFound } from '../../contract/errors.ts';
import { Id } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';

export const downloadExport = defineOperation({
  name: 'entries.exports.download',
  summary: 'Download the CSV of a finished entries export',
  description:
    'The CSV as base64 JSON, or over HTTP with `Accept: text/csv` (or application/octet-stream) the file itself. 404 `not_found` (with `state`) until the export has succeeded, and once its file was purged (7 days after).',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Export job id (entries.export).') }, { additionalProperties: false }),
  output: Type.Object(
    {
      file_name: Type.String({ description: 'entries-<from>-<to>.csv' }),
      media_type: Type.String({ description: 'text/csv' }),
      size_bytes: Type.Integer({ description: 'Size of the CSV in bytes.' }),
      content_base64: Type.String({ description: 'The CSV (UTF-8), base64.' }),
    },
    { additionalProperties: false },
  ),
  example: { id: '00000000-0000-0000-0000-000000000000' },
  file: {
    mediaTypes: ['text/csv'],
    from: (output) => ({
      filename: output.file_name,
      mediaType: output.media_type,
      bytes: Buffer.from(output.content_base64, 'base64'),
    }),
  },
  async run({ ctx, input }) {
    const row = await ctx.db
      .selectFrom('books_jobs')
      .select(['id', 'state', 'file_name'])
      .where('organization_id', '=', ctx.organizationId)
      .where('kind', '=', 'entries_export')
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!row) throw notFound('Export', 'id');
    const bytes = row.state === 'succeeded' ? await readJobFile(ctx.db, row.id) : undefined;
    if (!bytes) {
      // A read answers no 409 (docs/decisions.md): the file does not exist yet, or any more.
      const state = row.state === 'succeeded' ? 'purged' : row.state;
      throw new AppError('not_found', `The export has no file to download (${state}).`, {
        field: 'id',
        details: { state },
      });
    }
    return {
      file_name: row.file_name ?? 'entries.csv',
      media_type: 'text/csv',
      size_bytes: bytes.length,
      content_base64: bytes.toString('base64'),
    };
  },
});
