import { Type } from 'typebox';
import { Limit, Offset } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { OffsetPage, offsetPage } from '../pagination.ts';
import { TEMPLATE_COLUMNS, Template, TemplateKind, toTemplate } from './schema.ts';

export const listTemplates = defineOperation({
  name: 'contractors.templates.list',
  summary: 'List agreement templates, newest first',
  description:
    'Markdown drafts and uploaded originals (PDF, Word or text), metadata only. Offset pagination; `kind` narrows to one kind.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  // The contract's operation table lists this read as POST only.
  get: false,
  input: Type.Object(
    {
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
      kind: Type.Optional(TemplateKind),
    },
    { additionalProperties: false },
  ),
  output: OffsetPage(Template, 'The page of template metadata (no content), newest first.'),
  example: { limit: 30, offset: 0, kind: 'markdown_draft' },
  async run({ ctx, input }) {
    const limit = input.limit ?? 30;
    const offset = input.offset ?? 0;
    let query = ctx.db
      .selectFrom('agreement_templates')
      .select(TEMPLATE_COLUMNS)
      .where('organization_id', '=', ctx.organizationId);
    if (input.kind) query = query.where('kind', '=', input.kind);
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    return offsetPage(rows.map(toTemplate), limit, offset);
  },
});
