import { Type } from 'typebox';
import { revisionConflict } from '../../contract/errors.ts';
import { IdempotencyKey, Revision } from '../../contract/formats.ts';
import { liveAddress, rotateInboundAddress } from '../../inbound/addresses.ts';
import { defineOperation } from '../define.ts';
import { RECEIPTS_PURPOSE } from './address-get.ts';
import { InboxAddress } from './schema.ts';
import { toInboxAddress } from './store.ts';

export const rotateInboxAddress = defineOperation({
  name: 'inbox.address.rotate',
  summary: 'Replace the receipts e-mail address (the old one stops at once)',
  description:
    'Issues a new receiving address; mail to the old one is refused from now on. Use it when the address leaked. Cannot be undone.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required', destructive: true },
  input: Type.Object(
    {
      expectedRevision: Revision('The revision of the address last read (inbox.address.get).'),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: InboxAddress,
  example: { expectedRevision: 1 },
  async run({ ctx, input }) {
    const now = ctx.clock.now().toISOString();
    const rotated = await rotateInboundAddress(
      ctx.db,
      ctx.organizationId,
      RECEIPTS_PURPOSE,
      input.expectedRevision,
      now,
    );
    if (!rotated) {
      const live = await liveAddress(ctx.db, ctx.organizationId, RECEIPTS_PURPOSE);
      throw revisionConflict(live?.revision ?? 1);
    }
    await ctx.audit({
      recordType: 'inbound_address',
      recordId: rotated.current.id,
      beforeRevision: rotated.retired.revision,
      afterRevision: rotated.current.revision,
    });
    return toInboxAddress(ctx.db, rotated.current, ctx.services.config.inbound.domain);
  },
});
