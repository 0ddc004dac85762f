import { Type } from 'typebox';
import { COMPANY_MAIL_PURPOSE } from '../../company-mail/inbound.ts';
import { ensureInboundAddress } from '../../inbound/addresses.ts';
import { defineOperation } from '../define.ts';
import { MAIL_READ_ACCESS, MailAddress, toMailAddress } from './schema.ts';

export const getMailAddress = defineOperation({
  name: 'mail.address.get',
  summary: 'The e-mail address that receives company mail',
  description:
    'Messages sent to it from anyone become letters (channel email); it is distinct from the receipts inbox address (inbox.address.get). Issued on first use; mail.address.rotate replaces it.',
  access: MAIL_READ_ACCESS,
  input: Type.Object({}, { additionalProperties: false }),
  output: MailAddress,
  example: {},
  async run({ ctx }) {
    const row = await ensureInboundAddress(
      ctx.db,
      ctx.organizationId,
      COMPANY_MAIL_PURPOSE,
      ctx.clock.now().toISOString(),
    );
    return toMailAddress(ctx.db, row, ctx.services.config.inbound.domain);
  },
});
