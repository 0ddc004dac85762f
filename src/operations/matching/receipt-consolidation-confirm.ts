import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { confirmConsolidation } from '../../receipts/consolidation/confirm.ts';
import { defineOperation } from '../define.ts';

/**
 * The contract reserves this confirmation to the dashboard, after a finance member has reviewed
 * the current original documents and the source-backed payment identity: API keys, OAuth tokens,
 * MCP clients and automatic actors may never approve it. The pipeline refuses every call with 403
 * `dashboard_only` before reading the input, and no MCP tool exists for it. Its body schema is
 * published exactly as the contract gives it; the handler runs the domain confirmation
 * (src/receipts/consolidation/confirm.ts) for the dashboard transport.
 */
export const confirmReceiptConsolidation = defineOperation({
  name: 'matching.receiptConsolidation.confirm',
  summary: 'Confirm a receipt consolidation (dashboard only)',
  description:
    'Adds a receipt association and alias after a finance member reviewed the current originals and the source-backed payment identity. Bank amounts, allocations, financial fields, tax and review status are unchanged.',
  access: {
    scopes: ['accounting:read', 'accounting:write'],
    roles: 'dashboard',
    // "A finance member reviews": a member with finance rights, and an admin has them (decision 332).
    dashboardRoles: ['admin', 'finance'],
  },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  mcpTool: false,
  input: Type.Object(
    {
      receiptEntryId: Id('The receipt entry to consolidate.'),
      expectedReceiptRevision: Revision('The revision of the receipt entry last read.'),
      targetEntryId: Id('The entry the receipt is consolidated into.'),
      expectedTargetRevision: Revision('The revision of the target entry last read.'),
      mode: Type.Union([Type.Literal('same_order'), Type.Literal('provider_card_settlement')], {
        description: 'Why the two belong together: the same order, or a card provider settlement.',
      }),
      transactions: Type.Array(
        Type.Object(
          {
            id: Id('Bank or card transaction id.'),
            expectedRevision: Revision('The revision of the transaction last read.'),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 20, description: 'The transactions involved, 1-20.' },
      ),
      expectedSourceFingerprint: Type.String({
        pattern: '^[0-9a-f]{64}$',
        description: 'SHA-256 (64 lowercase hex characters) of the current preview; must still match.',
      }),
      reviewedOriginalEvidenceIds: Type.Array(Id('Original document id.'), {
        minItems: 1,
        maxItems: 60,
        description: 'The original documents the reviewer looked at, 1-60.',
      }),
      originalsReviewed: Type.Literal(true, { description: 'Must be true: the originals were reviewed.' }),
      reason: Type.String({
        minLength: 10,
        maxLength: 1000,
        description: 'Why the consolidation is right, 10-1000 characters; kept in the record history.',
      }),
      idempotencyKey: IdempotencyKey(200),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      receipt_entry_id: Id('The receipt entry.'),
      target_entry_id: Id('The target entry.'),
      mode: Type.String({ description: 'The consolidation mode.' }),
      receipt_revision: Type.Integer({
        minimum: 1,
        description: 'The receipt entry revision after the change.',
      }),
      target_revision: Type.Integer({
        minimum: 1,
        description: 'The target entry revision after the change.',
      }),
    },
    { additionalProperties: false },
  ),
  example: {
    receiptEntryId: '01890a5d-ac96-774b-bcce-b302099a8057',
    expectedReceiptRevision: 3,
    targetEntryId: '01890a5d-ac96-774b-bcce-b302099a8058',
    expectedTargetRevision: 5,
    mode: 'same_order',
    transactions: [{ id: '01890a5d-ac96-774b-bcce-b302099a8059', expectedRevision: 1 }],
    expectedSourceFingerprint: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    reviewedOriginalEvidenceIds: ['01890a5d-ac96-774b-bcce-b302099a805a'],
    originalsReviewed: true,
    reason: 'Same order number on the receipt and the card statement.',
    idempotencyKey: 'confirm-2026-09-22-0001',
  },
  async run({ ctx, input }) {
    // Reached only through the dashboard transport (checkAccess refuses 'dashboard' operations to
    // API keys, OAuth and MCP). The checks and the effect live in the domain, which the dashboard
    // may also call inside its own unit of work.
    const done = await confirmConsolidation(ctx, input, `member:${ctx.principal.memberId}`);
    return {
      receipt_entry_id: input.receiptEntryId,
      target_entry_id: input.targetEntryId,
      mode: done.mode,
      receipt_revision: done.receiptRevision,
      target_revision: done.targetRevision,
    };
  },
});
