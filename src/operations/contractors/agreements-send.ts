import { Type } from 'typebox';
import { Id, IdempotencyKey } from '../../contract/formats.ts';
import { PLACEHOLDERS } from '../../contractors/agreement-render.ts';
import { Agreement, toAgreement } from '../../contractors/agreement-wire.ts';
import { sendAgreement } from '../../contractors/agreements.ts';
import { mailAgreementWaiting } from '../../contractors/portal-mail.ts';
import { defineOperation } from '../define.ts';
import { requireContractor } from './store.ts';

export const sendAgreementOperation = defineOperation({
  name: 'contractors.agreements.send',
  summary: 'Send an agreement to a contractor from a template',
  description: `Fixes the exact document the contractor will read and sign in the portal: a Markdown draft rendered with the contractor's fields (placeholders ${PLACEHOLDERS.map((p) => `\`{{${p}}}\``).join(', ')}; any other placeholder is refused), or an uploaded original byte for byte. Its SHA-256 is returned and kept; the agreement starts \`sent\`. A contractor who may use the portal is e-mailed a link to the agreement's portal page.`,
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'none' },
  input: Type.Object(
    {
      contractorId: Id('Contractor id.'),
      templateId: Id('Agreement template id (contractors.templates.list).'),
      title: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: "Title shown to the contractor, 1-200 characters; the template's name by default.",
        }),
      ),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: Agreement,
  example: {
    contractorId: '01927f3e-6a1c-7b2d-8e4f-0123456789ab',
    templateId: '01927f3e-6a1c-7b2d-8e4f-0123456789ac',
    title: 'Master services agreement',
    idempotencyKey: 'agreement-send-0001',
  },
  async run({ ctx, input }) {
    await requireContractor(ctx, input.contractorId, 'contractorId');
    const row = await sendAgreement(ctx, input.contractorId, input.templateId, input.title);
    // In this unit: the mail is queued with the agreement or not at all (decision 451).
    await mailAgreementWaiting(ctx, ctx.services.config.publicUrl, row);
    return toAgreement(row);
  },
});
