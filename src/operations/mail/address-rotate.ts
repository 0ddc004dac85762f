import { Type } from 'typebox';
import { COMPANY_MAIL_PURPOSE } from '../../company-mail/inbound.ts';
import { IdempotencyKey, Revision } from '../../contract/formats.ts';
import { rotateAddressAsChange } from '../../inbound/rotate.ts';
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
    const current = await rotateAddressAsChange(ctx, COMPANY_MAIL_PURPOSE, input.expectedRevision);
    return toMailAddress(ctx.db, current, ctx.services.config.inbound.domain);
  },
});
