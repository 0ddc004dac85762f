import { Type } from 'typebox';

/** Wire formats shared by the books operations (money and currency: contract/formats.ts). */
export const NullableString = (description: string) =>
  Type.Union([Type.String(), Type.Null()], { description });

export const NullableDate = (description: string) =>
  Type.Union([Type.String({ format: 'date' }), Type.Null()], { description });

export const RevisionField = Type.Integer({
  minimum: 1,
  description: 'Revision: 1 at creation, +1 on every change; send it as expectedRevision.',
});

export const ACCOUNT_KINDS = ['checking', 'savings', 'credit_card', 'cash', 'payment_provider'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

export const TRANSACTION_STATUSES = ['unmatched', 'matched', 'excluded'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** `%text%` for LIKE, with the wildcards of the search text escaped (use with `escape '\\'`). */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
