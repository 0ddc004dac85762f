import { Type } from 'typebox';
import { notFound } from '../../contract/errors.ts';
import { Id } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { TEMPLATE_COLUMNS, Template, toTemplate } from './schema.ts';

const TemplateWithMarkdown = Type.Object(
  {
    ...Template.properties,
    markdown: Type.Union([Type.String(), Type.Null()], {
      description:
        'The Markdown text of a draft; null for uploaded originals (contractors.templates.download returns the file).',
    }),
  },
  { additionalProperties: false },
);

export const getTemplate = defineOperation({
  name: 'contractors.templates.get',
  summary: 'Get an agreement template',
  description: 'Metadata of one template, with the Markdown text when it is a draft. Unknown id: 404.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({ id: Id('Template id.') }, { additionalProperties: false }),
  output: TemplateWithMarkdown,
  example: { id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab' },
  async run({ ctx, input }) {
    const row = await ctx.db
      .selectFrom('agreement_templates')
      .select(TEMPLATE_COLUMNS)
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!row) throw notFound('Template', 'id');
    let markdown: string | null = null;
    if (row.kind === 'markdown_draft') {
      // Only drafts are read back whole; they are at most 200 000 characters.
      const content = await ctx.db
        .selectFrom('agreement_templates')
        .select('content')
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      markdown = Buffer.from(content.content).toString('utf8');
    }
    return { ...toTemplate(row), markdown };
  },
});
