import { Type } from 'typebox';
import { revisionConflict } from '../../contract/errors.ts';
import {
  CurrencyCode,
  DateString,
  Id,
  IdempotencyKey,
  Revision,
  SignedMinor,
} from '../../contract/formats.ts';
import { confirmReceiptFields } from '../../receipts/processing/confirm-fields.ts';
import { defineOperation } from '../define.ts';
import { InboxItem } from './schema.ts';
import { requireReceipt, toInboxItem } from './store.ts';

export const confirmInboxItem = defineOperation({
  name: 'inbox.confirm',
  summary: 'Confirm (and correct) what was read from an inbox item',
  description:
    'A person confirms the merchant, date, total and currency of an item that needs review (or corrects a ready one), giving any value that was not read or was read wrong. The item becomes `ready`, its receipt entry is posted with these values (a read that needs review posts none until then) and matching runs again. A matched item is detached first (matching.detach).',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Inbox item id.'),
      expectedRevision: Revision(),
      merchant: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 300,
          pattern: '\\S',
          description: 'Merchant, 1-300 characters.',
        }),
      ),
      date: Type.Optional(DateString('Document date.')),
      totalMinor: Type.Optional(
        SignedMinor('Amount to pay, signed minor units (negative for a credit note).'),
      ),
      currency: Type.Optional(CurrencyCode('Currency of the total.')),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: InboxItem,
  example: {
    id: '00000000-0000-0000-0000-000000000000',
    expectedRevision: 2,
    date: '2026-03-14',
    totalMinor: '2380',
    currency: 'EUR',
  },
  async run({ ctx, input }) {
    const current = await requireReceipt(ctx.db, ctx.organizationId, input.id);
    if (current.revision !== input.expectedRevision) throw revisionConflict(current.revision);
    await confirmReceiptFields(ctx, current, {
      ...(input.merchant === undefined ? {} : { merchant: input.merchant }),
      ...(input.date === undefined ? {} : { date: input.date }),
      ...(input.totalMinor === undefined ? {} : { totalMinor: input.totalMinor }),
      ...(input.currency === undefined ? {} : { currency: input.currency }),
    });
    return toInboxItem(await requireReceipt(ctx.db, ctx.organizationId, input.id));
  },
});
