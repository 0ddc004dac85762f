import { Type } from 'typebox';
import { IdempotencyKey, Revision } from '../../contract/formats.ts';
import { rotateAddressAsChange } from '../../inbound/rotate.ts';
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
  // Not an agent's call: a new address breaks every mail rule members set up (decision 185).
  mcpTool: false,
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
    const current = await rotateAddressAsChange(ctx, RECEIPTS_PURPOSE, input.expectedRevision);
    return toInboxAddress(ctx.db, current, ctx.services.config.inbound.domain);
  },
});
