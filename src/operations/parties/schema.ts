import { type Static, Type } from 'typebox';
import { AppError } from '../../contract/errors.ts';
import { Country, Id, SingleLineText, Timestamp } from '../../contract/formats.ts';
import type { Party as PartyModel } from '../../invoicing/invoices/index.ts';
import { currencyRefusal } from '../../lib/currencies.ts';

/** The party (a customer invoiced) as returned on the wire, snake_case. */
export const Party = Type.Object(
  {
    id: Id('Party id.'),
    name: Type.String({ description: 'Name printed on invoices, 1-200 characters.' }),
    email: Type.Union([Type.String(), Type.Null()], { description: 'Where invoices are emailed.' }),
    address_lines: Type.Array(Type.String(), { description: 'Postal address, one entry per line.' }),
    country: Type.Union([Type.String(), Type.Null()], {
      description: 'Country, two uppercase letters (ISO 3166-1 alpha-2), or null when not given.',
    }),
    tax_id: Type.Union([Type.String(), Type.Null()], {
      description: 'Tax or VAT number printed on invoices, or null when not given.',
    }),
    default_currency: Type.Union([Type.String(), Type.Null()], {
      description: 'Currency suggested for new invoices to this party.',
    }),
    revision: Type.Integer({
      minimum: 1,
      description: 'Revision: 1 at creation, +1 on every change; send it as expectedRevision.',
    }),
    created_at: Timestamp('When the party was created (ISO 8601, UTC).'),
    updated_at: Timestamp('Last change (ISO 8601, UTC).'),
  },
  { title: 'Party', additionalProperties: false },
);
export type Party = Static<typeof Party>;

export function toPartyRecord(party: PartyModel): Party {
  return {
    id: party.id,
    name: party.name,
    email: party.email,
    address_lines: party.addressLines,
    country: party.country,
    tax_id: party.taxId,
    default_currency: party.defaultCurrency,
    revision: party.revision,
    created_at: party.createdAt,
    updated_at: party.updatedAt,
  };
}

/** Input fields shared by parties.create and parties.update. */
export const PartyName = SingleLineText(1, 200, 'Name, 1-200 characters on one line.');
export const AddressLines = Type.Array(
  Type.String({ minLength: 1, maxLength: 200, description: 'One address line, 1-200 characters.' }),
  { maxItems: 6, description: 'Postal address, up to 6 lines of 1-200 characters.' },
);
export const TaxId = Type.String({
  minLength: 1,
  maxLength: 50,
  description: 'Tax or VAT number, 1-50 characters.',
});
export { Country };

export function partyEmailTaken(): AppError {
  return new AppError('party_email_taken', 'Another party in this organization has this email.', {
    field: 'email',
  });
}

/** The party as event data (docs/events.md, party.*): camelCase, no ids or bookkeeping. */
export function partyEventData(party: PartyModel): Record<string, unknown> {
  return {
    name: party.name,
    email: party.email,
    addressLines: party.addressLines,
    country: party.country,
    taxId: party.taxId,
    defaultCurrency: party.defaultCurrency,
  };
}

/** The fields of `after` that differ from `before`, with their new values. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(after).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key])),
  );
}

/** `code`, when given, makes the message say why (withdrawn and replaced, no minor unit, lowercase). */
export function unsupportedCurrency(field: string, code?: unknown): AppError {
  const why = typeof code === 'string' ? ` ${currencyRefusal(code) ?? ''}`.trimEnd() : '';
  return new AppError('unsupported_currency', `${field} is not a supported ISO 4217 currency.${why}`, {
    field,
  });
}
