import { Type } from 'typebox';
import { CurrencyCode, DateString, Id, SignedMinor } from '../../contract/formats.ts';
import { consolidationCandidates } from '../../receipts/consolidation/candidates.ts';
import { defineOperation } from '../define.ts';

export const listReceiptConsolidationCandidates = defineOperation({
  name: 'matching.receiptConsolidation.candidates',
  summary: 'Entries a receipt entry could be consolidated into',
  description:
    'Nearest in date first (within 31 days): receipt entries and entries of the receipt’s total, each kept only when matching.receiptConsolidation.preview accepts the pair, with the mode it found. Entries this receipt entry was already consolidated into are left out. Pass one to the preview.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      receiptEntryId: Id('The receipt entry (posted by a processed receipt).'),
      limit: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 20, description: 'At most this many (default 10).' }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      items: Type.Array(
        Type.Object(
          {
            entry_id: Id('The target entry.'),
            revision: Type.Integer({ minimum: 1, description: 'Its revision now.' }),
            mode: Type.Union([Type.Literal('same_order'), Type.Literal('provider_card_settlement')], {
              description: 'Why the two belong together.',
            }),
            date: DateString('Entry date.'),
            description: Type.String({ description: 'Entry description.' }),
            amount_minor: SignedMinor('Entry amount.'),
            currency: CurrencyCode('Entry currency.'),
            source_type: Type.String({ description: 'What posted the entry (receipt, transaction...).' }),
          },
          { additionalProperties: false },
        ),
        { description: 'The candidates, nearest in date first.' },
      ),
    },
    { additionalProperties: false },
  ),
  example: { receiptEntryId: '00000000-0000-0000-0000-000000000000' },
  async run({ ctx, input }) {
    const found = await consolidationCandidates(
      ctx.db,
      ctx.organizationId,
      input.receiptEntryId,
      input.limit ?? 10,
    );
    return {
      items: found.map((c) => ({
        entry_id: c.entryId,
        revision: c.revision,
        mode: c.mode,
        date: c.entryDate,
        description: c.description,
        amount_minor: c.amountMinor,
        currency: c.currency,
        source_type: c.sourceType,
      })),
    };
  },
});
