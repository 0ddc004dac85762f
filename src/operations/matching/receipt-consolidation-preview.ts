import { Type } from 'typebox';
import { Id } from '../../contract/formats.ts';
import { currentPreview } from '../../receipts/consolidation/preview.ts';
import { defineOperation } from '../define.ts';

const RevisionRef = (what: string) =>
  Type.Object(
    {
      id: Id(`${what} id.`),
      revision: Type.Integer({
        minimum: 1,
        description: `${what} revision now; the confirmation must send it.`,
      }),
    },
    { additionalProperties: false },
  );

export const previewReceiptConsolidation = defineOperation({
  name: 'matching.receiptConsolidation.preview',
  summary: 'Preview consolidating a receipt entry into a target entry',
  description:
    'What a finance member reviews before the dashboard confirms a consolidation: the mode (same_order: an order confirmation and its receipt; provider_card_settlement: a wallet or provider receipt and the card charge that settled it), both entries and every transaction with their revisions, the receipts, the current originals (evidence ids: stored file ids with their SHA-256), the payment identity the documents show, and `sourceFingerprint`: SHA-256 over the documented canonical form of all of it (docs/receipts.md). Any change to any of these records changes the fingerprint. Readable with API keys and MCP; the confirmation is dashboard only.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      receiptEntryId: Id('The receipt entry (posted by a processed receipt).'),
      targetEntryId: Id('The entry it would be consolidated into.'),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      mode: Type.Union([Type.Literal('same_order'), Type.Literal('provider_card_settlement')], {
        description: 'Why the two belong together.',
      }),
      receipt_entry: RevisionRef('Receipt entry'),
      target_entry: RevisionRef('Target entry'),
      transactions: Type.Array(RevisionRef('Transaction'), {
        description: 'Every transaction involved, by id.',
      }),
      receipts: Type.Array(RevisionRef('Receipt'), {
        description: 'The receipts behind the two entries, by id.',
      }),
      original_evidence: Type.Array(
        Type.Object(
          {
            id: Id('Evidence id: the stored original file.'),
            content_hash: Type.String({ description: 'SHA-256 of the original (64 lowercase hex).' }),
          },
          { additionalProperties: false },
        ),
        { description: 'The current originals of the pair.' },
      ),
      payment_identity: Type.Object(
        {
          method: Type.Union([Type.String(), Type.Null()], {
            description: 'Payment method as the documents name it.',
          }),
          card_last_four: Type.Union([Type.String(), Type.Null()], {
            description: 'Card last four, from a document or the card charged.',
          }),
          provider: Type.Union([Type.String(), Type.Null()], {
            description: 'Payment provider (paypal, applepay, klarna...).',
          }),
        },
        { additionalProperties: false, description: 'The source-backed payment identity.' },
      ),
      source_fingerprint: Type.String({
        pattern: '^[0-9a-f]{64}$',
        description: 'SHA-256 (64 lowercase hex) of the canonical form; the confirmation sends it back.',
      }),
    },
    { additionalProperties: false },
  ),
  example: {
    receiptEntryId: '00000000-0000-0000-0000-000000000000',
    targetEntryId: '00000000-0000-0000-0000-000000000001',
  },
  async run({ ctx, input }) {
    const p = await currentPreview(ctx.db, ctx.organizationId, input.receiptEntryId, input.targetEntryId);
    const sorted = <T extends { id: string }>(items: readonly T[]) =>
      [...items].sort((a, b) => (a.id < b.id ? -1 : 1));
    return {
      mode: p.mode,
      receipt_entry: p.receiptEntry,
      target_entry: p.targetEntry,
      transactions: sorted(p.transactions).map((t) => ({ id: t.id, revision: t.revision })),
      receipts: sorted(p.receipts ?? []).map((r) => ({ id: r.id, revision: r.revision })),
      original_evidence: sorted(p.originalEvidence).map((e) => ({ id: e.id, content_hash: e.contentHash })),
      payment_identity: {
        method: p.paymentIdentity.method,
        card_last_four: p.paymentIdentity.cardLastFour,
        provider: p.paymentIdentity.provider,
      },
      source_fingerprint: p.sourceFingerprint,
    };
  },
});
