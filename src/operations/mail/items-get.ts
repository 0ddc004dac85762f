import { Type } from 'typebox';
import { mailItemFiles, requireMailItem } from '../../company-mail/items.ts';
import { countMailReads, listMailReads, recordMailRead } from '../../company-mail/reads.ts';
import { Id } from '../../contract/formats.ts';
import { asIso } from '../../db/values.ts';
import { defineOperation } from '../define.ts';
import { MAIL_READ_ACCESS, MailItemWithReads, toMailItem } from './schema.ts';

export const getMailItem = defineOperation({
  name: 'mail.items.get',
  summary: 'Read one letter, with who read it',
  description:
    'Returns the letter (sender, subject, dates, files) and the record of its reads, newest first. This call is a read and is recorded first (who, when, which letter), so it appears in `reads`. Unknown id: 404.',
  access: MAIL_READ_ACCESS,
  input: Type.Object({ id: Id('Letter id.') }, { additionalProperties: false }),
  output: MailItemWithReads,
  example: { id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab' },
  async run({ ctx, input }) {
    const row = await requireMailItem(ctx.db, ctx.organizationId, input.id);
    await recordMailRead(ctx, row.id);
    const [files, reads, count] = await Promise.all([
      mailItemFiles(ctx.db, ctx.organizationId, [row.id]),
      listMailReads(ctx.db, ctx.organizationId, row.id),
      countMailReads(ctx.db, ctx.organizationId, row.id),
    ]);
    return {
      item: toMailItem(row, files),
      reads: reads.map((read) => ({ ...read, read_at: asIso(read.read_at) })),
      read_count: count,
    };
  },
});
