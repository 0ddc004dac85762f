import { Type } from 'typebox';
import type { EventDefinition } from '../definition.ts';

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

const partyFields = {
  name: Type.String({ description: 'Name printed on invoices.' }),
  email: NullableString('Where invoices are emailed; null when none is on file.'),
  addressLines: Type.Array(Type.String(), { description: 'Billing address, one line per item.' }),
  country: NullableString('Two-letter country code.'),
  taxId: NullableString('Tax registration number printed on invoices.'),
  defaultCurrency: NullableString('ISO 4217 code used when an invoice names none.'),
};

/** Parties: the customers invoiced (the `partyId` of invoice events). */
export const partyEvents: readonly EventDefinition[] = [
  {
    type: 'party.created',
    subjectType: 'party',
    description: 'A party (a customer to invoice) was added (parties.create).',
    data: Type.Object(partyFields, { additionalProperties: false }),
  },
  {
    type: 'party.updated',
    subjectType: 'party',
    description:
      'A party changed (parties.update). `data` holds only the fields that changed, with their new values; invoices already sent keep the details they were sent with.',
    data: Type.Partial(Type.Object(partyFields, { additionalProperties: false })),
  },
];
