import { Type } from 'typebox';
import { archiveMailItem, mailItemFiles } from '../../company-mail/items.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { MAIL_CHANGE_ACCESS, MailItem, toMailItem } from './schema.ts';

export const archiveMailItemOperation = defineOperation({
  name: 'mail.items.archive',
  summary: 'Archive a letter',
  description:
    "Moves the letter out of the default list (mail.items.list `archived: true` shows it). When the organization sets a scan retention (admin.organization.update `mailScanRetentionDays`), the letter's files are deleted that many days after archiving. Emits mail.archived. Already archived: 409 invalid_state.",
  access: MAIL_CHANGE_ACCESS,
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Letter id.'),
      expectedRevision: Revision(),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: MailItem,
  example: { id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab', expectedRevision: 1 },
  async run({ ctx, input }) {
    const row = await archiveMailItem(ctx, input.id, input.expectedRevision);
    return toMailItem(row, await mailItemFiles(ctx.db, ctx.organizationId, [row.id]));
  },
});
