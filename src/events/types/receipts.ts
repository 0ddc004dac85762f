import { Type } from 'typebox';
import type { EventDefinition } from '../definition.ts';

const Str = (description: string) => Type.String({ description });
const Nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

/** Receipts: intake, extraction, matching and consolidation (docs/receipts.md). */
export const receiptEvents: readonly EventDefinition[] = [
  {
    type: 'receipt.processed',
    subjectType: 'receipt',
    description:
      'A receipt finished processing: it was read (state ready or needs_review, with its receipt entry when it has a total) or it failed safely (state failed with a stable code).',
    data: Type.Object(
      {
        state: Str('ready, needs_review or failed.'),
        kind: Nullable('einvoice_ubl, einvoice_cii, facturx, pdf_text or image_ocr; null when failed.'),
        merchant: Nullable('Merchant as extracted.'),
        totalMinor: Nullable('Amount to pay, signed minor units.'),
        currency: Nullable('ISO 4217 code.'),
        entryId: Nullable('The receipt entry posted, or null.'),
        reviewReasons: Type.Array(Type.String(), { description: 'Why a person should check it.' }),
        failureCode: Nullable(
          'unsupported_type, type_mismatch, unsafe_xml, too_large, timeout, memory_limit or corrupt_file; null unless failed.',
        ),
        suggestions: Type.Integer({ minimum: 0, description: 'Open transactions suggested for it.' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'receipt.matched',
    subjectType: 'receipt',
    description:
      'A receipt was attached to a transaction (a confirmed suggestion, a manual attach or an auto-match); the transaction is matched and leaves attention.mine.',
    data: Type.Object(
      {
        transactionId: Str('The transaction.'),
        entryId: Str('The transaction’s entry the receipt is attached to.'),
        how: Str('confirmed, manual or auto.'),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'receipt.unmatched',
    subjectType: 'receipt',
    description: 'A receipt was detached from its transaction (matching.detach); both are open again.',
    data: Type.Object(
      { transactionId: Str('The transaction it was attached to.') },
      { additionalProperties: false },
    ),
  },
  {
    type: 'receipt.consolidated',
    subjectType: 'entry',
    description:
      'A receipt entry was consolidated into a target entry after a reviewed confirmation: a receipt association and an alias were added, nothing else changed.',
    data: Type.Object(
      {
        receiptEntryId: Str('The receipt entry.'),
        targetEntryId: Str('The entry it was consolidated into.'),
        mode: Str('same_order or provider_card_settlement.'),
        sourceFingerprint: Str('The preview fingerprint that was confirmed.'),
      },
      { additionalProperties: false },
    ),
  },
];
