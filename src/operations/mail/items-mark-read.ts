import { Type } from 'typebox';
import { mailItemFiles, markMailItemRead } from '../../company-mail/items.ts';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { MAIL_CHANGE_ACCESS, MailItem, toMailItem } from './schema.ts';

export const markMailItemReadOperation = defineOperation({
  name: 'mail.items.markRead',
  summary: 'Mark a letter read (or unread again)',
  description:
    "Sets read_at (or clears it with `read: false`). Marking a letter already in that state: 409 invalid_state. This changes the letter's state; it is not the access record (mail.items.get records reads).",
  access: MAIL_CHANGE_ACCESS,
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Letter id.'),
      expectedRevision: Revision(),
      read: Type.Optional(Type.Boolean({ description: 'true (default): mark read; false: mark unread.' })),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: MailItem,
  example: { id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab', expectedRevision: 1 },
  async run({ ctx, input }) {
    const row = await markMailItemRead(ctx, input.id, input.expectedRevision, input.read ?? true);
    return toMailItem(row, await mailItemFiles(ctx.db, ctx.organizationId, [row.id]));
  },
});
