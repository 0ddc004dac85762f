import { type Static, Type } from 'typebox';
import type { ExportParams } from '../../books/export-job.ts';
import type { ImportCounts } from '../../books/jobs-queue.ts';
import { notFound } from '../../contract/errors.ts';
import { Id, Timestamp } from '../../contract/formats.ts';
import { asBool, asInt, asIso, asIsoOrNull, asJson } from '../../db/values.ts';
import { defineOperation } from '../define.ts';

export const EntriesExport = Type.Object(
  {
    id: Id('Export job id.'),
    state: Type.Union(
      [Type.Literal('queued'), Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed')],
      { description: 'queued, running, succeeded or failed.' },
    ),
    from: Type.String({ format: 'date', description: 'First date included.' }),
    to: Type.String({ format: 'date', description: 'Last date included.' }),
    entries: Type.Integer({ description: 'Entries written (once succeeded).' }),
    rows: Type.Integer({ description: 'CSV rows written, one per allocation (once succeeded).' }),
    file_name: Type.Union([Type.String(), Type.Null()], { description: 'Name of the CSV once written.' }),
    file_size: Type.Integer({ description: 'Size of the CSV in bytes (0 until written).' }),
    downloadable: Type.Boolean({ description: 'true when entries.exports.download returns the file.' }),
    created_at: Timestamp('When the export was requested.'),
    finished_at: Type.Union([Timestamp('When it ended.'), Type.Null()], {
      description: 'When it ended, or null.',
    }),
    error: Type.Union(
      [
        Type.Object(
          {
            code: Type.String({ description: 'attempts_exhausted: the export failed on every attempt.' }),
            message: Type.String({ description: 'The last cause, with the attempt it happened on.' }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'Why the export failed (state failed), or null.' },
    ),
  },
  { title: 'EntriesExport', additionalProperties: false },
);
export type EntriesExport = Static<typeof EntriesExport>;

export const getExport = defineOperation({
  name: 'entries.exports.get',
  summary: 'Poll an entries export',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Export job id (entries.export).') }, { additionalProperties: false }),
  output: EntriesExport,
  example: { id: '00000000-0000-0000-0000-000000000000' },
  async run({ ctx, input }) {
    const row = await ctx.db
      .selectFrom('books_jobs')
      .select([
        'id',
        'state',
        'params',
        'progress',
        'file_name',
        'file_size',
        'created_at',
        'finished_at',
        'error_code',
        'error_message',
      ])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('books_job_files as f')
              .select('f.job_id')
              .whereRef('f.job_id', '=', 'books_jobs.id'),
          )
          .as('has_file'),
      )
      .where('organization_id', '=', ctx.organizationId)
      .where('kind', '=', 'entries_export')
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!row) throw notFound('Export', 'id');
    const params = asJson<ExportParams>(row.params);
    const counts = asJson<ImportCounts>(row.progress);
    return {
      id: row.id,
      state: row.state as EntriesExport['state'],
      from: params.from,
      to: params.to,
      entries: counts.read,
      rows: counts.added,
      file_name: row.file_name,
      file_size: asInt(row.file_size),
      downloadable: row.state === 'succeeded' && asBool(row.has_file),
      created_at: asIso(row.created_at),
      finished_at: asIsoOrNull(row.finished_at),
      error:
        row.state === 'failed'
          ? { code: row.error_code ?? 'failed', message: row.error_message ?? '' }
          : null,
    };
  },
});
