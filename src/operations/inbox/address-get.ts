import { Type } from 'typebox';
import { ensureInboundAddress } from '../../inbound/addresses.ts';
import { defineOperation } from '../define.ts';
import { InboxAddress } from './schema.ts';
import { toInboxAddress } from './store.ts';

export const RECEIPTS_PURPOSE = 'receipts';

export const getInboxAddress = defineOperation({
  name: 'inbox.address.get',
  summary: 'The e-mail address that receives receipts for the organization',
  description:
    'Each attachment of a message sent to this address by an active member (the From address is a member’s e-mail) becomes an inbox item; any other message is refused and counted. Issued on first use; inbox.address.rotate replaces it.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object({}, { additionalProperties: false }),
  output: InboxAddress,
  example: {},
  async run({ ctx }) {
    const row = await ensureInboundAddress(
      ctx.db,
      ctx.organizationId,
      RECEIPTS_PURPOSE,
      ctx.clock.now().toISOString(),
    );
    return toInboxAddress(ctx.db, row, ctx.services.config.inbound.domain);
  },
});
