import { Type } from 'typebox';
import { notFound } from '../../contract/errors.ts';
import { Id } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { UPLOAD_MEDIA_TYPES } from './schema.ts';

/** A draft downloads as `<name>.md`, the name made safe for a file system. */
function draftFileName(name: string): string {
  const base = name
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // Cut by code points, never inside a surrogate pair.
  const short = Array.from(base).slice(0, 150).join('').trim();
  return `${short === '' ? 'template' : short}.md`;
}

export const downloadTemplate = defineOperation({
  name: 'contractors.templates.download',
  summary: 'Download the content of an agreement template',
  description:
    "The uploaded original as it was uploaded (same bytes, media type and file name), or a draft's Markdown as `<name>.md`. Over HTTP, `Accept` with the file's media type or `application/octet-stream` returns the bytes themselves (Content-Disposition: attachment) instead of the JSON form with base64 content. Unknown id: 404.",
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Template id.') }, { additionalProperties: false }),
  output: Type.Object(
    {
      file_name: Type.String({
        description: "The uploaded file's name, or `<template name>.md` for a draft.",
      }),
      media_type: Type.String({ description: 'The media type of the content (text/markdown for drafts).' }),
      size_bytes: Type.Integer({ description: 'Size of the content in bytes.' }),
      sha256: Type.String({ description: 'SHA-256 of the content, lowercase hex: compare after download.' }),
      content_base64: Type.String({ description: 'The content, base64.' }),
    },
    { additionalProperties: false },
  ),
  example: { id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab' },
  file: {
    mediaTypes: [...new Set(['text/markdown', ...UPLOAD_MEDIA_TYPES])],
    from: (output) => ({
      filename: output.file_name,
      mediaType: output.media_type,
      bytes: Buffer.from(output.content_base64, 'base64'),
    }),
  },
  async run({ ctx, input }) {
    const row = await ctx.db
      .selectFrom('agreement_templates')
      .select(['kind', 'name', 'file_name', 'media_type', 'size_bytes', 'sha256', 'content'])
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!row) throw notFound('Template', 'id');
    return {
      file_name: row.file_name ?? draftFileName(row.name),
      media_type: row.media_type,
      size_bytes: Number(row.size_bytes),
      sha256: row.sha256,
      content_base64: Buffer.from(row.content).toString('base64'),
    };
  },
});
