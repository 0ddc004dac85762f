import { type Static, Type } from 'typebox';
import { NullableString, RevisionField } from '../../books/wire.ts';
import { Id, literalUnion, Timestamp } from '../../contract/formats.ts';

const NullableId = (description: string) => Type.Union([Id(description), Type.Null()], { description });

export const INBOX_STATES = [
  'new',
  'processing',
  'ready',
  'needs_review',
  'failed',
  'matched',
  'ignored',
] as const;
export type InboxState = (typeof INBOX_STATES)[number];

export const InboxStateSchema = literalUnion(INBOX_STATES, {
  description:
    'Where the item stands. The flow: new (queued) -> processing -> ready, needs_review (read, a person should check: see review_reasons) or failed (see failure); matched once attached to a transaction; ignored by a person (inbox.restore brings it back).',
});

/** An inbox item: one received receipt file, its extraction and where it stands. */
export const InboxItem = Type.Object(
  {
    id: Id('Inbox item (receipt) id.'),
    state: InboxStateSchema,
    source: Type.Union([Type.Literal('upload'), Type.Literal('email'), Type.Literal('mail_forward')], {
      description:
        'upload (receipts.upload), email (sent to the inbox address) or mail_forward (company mail).',
    }),
    file_id: Id('The stored original (an evidence id of consolidation previews).'),
    file_name: Type.String({ description: 'File name as received.' }),
    media_type: Type.String({ description: 'Media type as received.' }),
    size: Type.Integer({ minimum: 0, description: 'Size in bytes.' }),
    sha256: Type.String({
      description: 'SHA-256 of the file (64 lowercase hex); identical files are one item.',
    }),
    kind: NullableString('How it was read: einvoice_ubl, einvoice_cii, facturx, pdf_text or image_ocr.'),
    merchant: NullableString('Merchant as extracted.'),
    date: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'Document date.' }),
    total_minor: NullableString('Amount to pay (signed minor units; negative for a credit note).'),
    currency: NullableString('ISO 4217 code.'),
    card_last_four: NullableString('Last four digits of the card that paid, when printed.'),
    review_reasons: Type.Array(Type.String(), {
      description:
        'Why a person should check it (missing_total, total_uncertain, date_uncertain, currency_uncertain, ocr_unavailable...).',
    }),
    failure: Type.Union(
      [
        Type.Object(
          {
            code: Type.String({
              description:
                'unsupported_type, type_mismatch, unsafe_xml, too_large, timeout, memory_limit or corrupt_file.',
            }),
            message: Type.String({ description: 'What went wrong, in words.' }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'Why extraction failed (state failed), else null.' },
    ),
    fields: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
      description:
        'Every extracted field with its confidence (0-1) and source (page and text span, or XML path); money as strings of minor units. docs/receipts.md lists them.',
    }),
    entry_id: NullableId('The receipt entry posted when it was read (waits for a transaction).'),
    transaction_id: NullableId('The transaction it is matched to.'),
    revision: RevisionField,
    created_at: Timestamp('When it arrived (ISO 8601, UTC).'),
    updated_at: Timestamp('Last change (ISO 8601, UTC).'),
  },
  { title: 'InboxItem', additionalProperties: false },
);
export type InboxItem = Static<typeof InboxItem>;

export const InboxAddress = Type.Object(
  {
    address: Type.String({
      description: 'Where members send receipts; each attachment becomes an inbox item.',
    }),
    revision: RevisionField,
    created_at: Timestamp('When this address was issued.'),
    accepted_messages: Type.Integer({ minimum: 0, description: 'Messages accepted, all addresses so far.' }),
    refused_messages: Type.Integer({
      minimum: 0,
      description: 'Messages refused (not from an active member, no receipt attachment...).',
    }),
  },
  { title: 'InboxAddress', additionalProperties: false },
);
export type InboxAddress = Static<typeof InboxAddress>;

/** The orders inbox.list offers. */
export const INBOX_SORTS = [
  'received_desc',
  'received_asc',
  'date_desc',
  'date_asc',
  'amount_desc',
  'amount_asc',
] as const;
export type InboxSort = (typeof INBOX_SORTS)[number];
export const InboxSort = literalUnion(INBOX_SORTS, {
  description:
    'Default received_desc. The date is the document date, the amount the signed total. Items still being read come last; ties by id. A cursor keeps the order it was issued in.',
});
