import { Type } from 'typebox';
import { AppError } from '../../contract/errors.ts';
import { IdempotencyKey } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { MAX_MARKDOWN_CHARS, Template, TemplateName } from './schema.ts';
import { insertTemplate } from './store.ts';

export const createTemplateDraft = defineOperation({
  name: 'contractors.templates.createDraft',
  summary: 'Write an agreement template draft in Markdown',
  description: `Stores a Markdown draft (up to ${MAX_MARKDOWN_CHARS} characters) as an agreement template of kind \`markdown_draft\`.`,
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'none' },
  // 200 000 characters can take 1.2 MB as JSON escapes (6 bytes per UTF-16 unit).
  maxBodyBytes: 2 * 1024 * 1024,
  input: Type.Object(
    {
      name: TemplateName,
      markdown: Type.String({
        minLength: 1,
        maxLength: MAX_MARKDOWN_CHARS,
        description: `The draft in Markdown, 1-${MAX_MARKDOWN_CHARS} characters; no NUL characters.`,
      }),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: Template,
  example: {
    name: 'Standard services agreement',
    markdown: '# Services agreement\n\nThe contractor agrees to ...',
    idempotencyKey: 'template-draft-0001',
  },
  async run({ ctx, input }) {
    // Lone surrogates would be silently replaced when encoded to UTF-8; NUL is never text.
    if (input.markdown.includes('\u0000') || /\p{Cs}/u.test(input.markdown))
      throw new AppError('invalid_input', 'markdown contains a NUL character or an unpaired surrogate.', {
        field: 'markdown',
      });
    return insertTemplate(ctx, {
      name: input.name,
      kind: 'markdown_draft',
      mediaType: 'text/markdown',
      fileName: null,
      content: Buffer.from(input.markdown, 'utf8'),
    });
  },
});
