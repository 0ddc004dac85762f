import { Type } from 'typebox';
import { COMPANY_MAIL_PURPOSE } from '../../company-mail/inbound.ts';
import { revisionConflict } from '../../contract/errors.ts';
import { IdempotencyKey, Revision } from '../../contract/formats.ts';
import { liveAddress, rotateInboundAddress } from '../../inbound/addresses.ts';
import { defineOperation } from '../define.ts';
import { MAIL_CHANGE_ACCESS, MailAddress, toMailAddress } from './schema.ts';

export const rotateMailAddress = defineOperation({
  name: 'mail.address.rotate',
  summary: 'Replace the company mail address (the old one stops at once)',
  description:
    'Issues a new receiving address; mail to the old one is refused from now on. Use it when the address attracts unwanted mail. Cannot be undone.',
  access: MAIL_CHANGE_ACCESS,
  mutation: { idempotencyKeyMax: 200, revision: 'required', destructive: true },
  input: Type.Object(
    {
      expectedRevision: Revision('The revision of the address last read (mail.address.get).'),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: MailAddress,
  example: { expectedRevision: 1 },
  async run({ ctx, input }) {
    const now = ctx.clock.now().toISOString();
    const rotated = await rotateInboundAddress(
      ctx.db,
      ctx.organizationId,
      COMPANY_MAIL_PURPOSE,
      input.expectedRevision,
      now,
    );
    if (!rotated) {
      const live = await liveAddress(ctx.db, ctx.organizationId, COMPANY_MAIL_PURPOSE);
      throw revisionConflict(live?.revision ?? 1);
    }
    await ctx.audit({
      recordType: 'inbound_address',
      recordId: rotated.current.id,
      beforeRevision: rotated.retired.revision,
      afterRevision: rotated.current.revision,
    });
    return toMailAddress(ctx.db, rotated.current, ctx.services.config.inbound.domain);
  },
});
