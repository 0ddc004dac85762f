import { Type } from 'typebox';
import { CurrencyCode, Email, IdempotencyKey } from '../../contract/formats.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { dbJson } from '../../db/values.ts';
import { toParty } from '../../invoicing/invoices/index.ts';
import { isSupportedCurrency } from '../../invoicing/money.ts';
import { newId } from '../../lib/ids.ts';
import { defineOperation } from '../define.ts';
import {
  AddressLines,
  Country,
  Party,
  PartyName,
  partyEmailTaken,
  partyEventData,
  TaxId,
  toPartyRecord,
  unsupportedCurrency,
} from './schema.ts';

export const createParty = defineOperation({
  name: 'parties.create',
  summary: 'Create a party (a customer to invoice)',
  description: 'Adds a party. Its email, when given, is unique in the organization (case-insensitive).',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'none' },
  input: Type.Object(
    {
      name: PartyName,
      email: Type.Optional(Email('Where invoices are emailed; unique in the organization.')),
      addressLines: Type.Optional(AddressLines),
      country: Type.Optional(Country),
      taxId: Type.Optional(TaxId),
      defaultCurrency: Type.Optional(CurrencyCode('Currency suggested for new invoices.')),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Party,
  example: {
    name: 'Northwind Traders',
    email: 'billing@northwind.example',
    country: 'CA',
    defaultCurrency: 'CAD',
  },
  async run({ ctx, input }) {
    if (input.defaultCurrency !== undefined && !isSupportedCurrency(input.defaultCurrency)) {
      throw unsupportedCurrency('defaultCurrency', input.defaultCurrency);
    }
    const now = ctx.clock.now().toISOString();
    const row = {
      id: newId(),
      organization_id: ctx.organizationId,
      name: input.name,
      email: input.email ?? null,
      email_normalized: input.email?.toLowerCase() ?? null,
      address_lines: dbJson(input.addressLines ?? []),
      country: input.country ?? null,
      tax_id: input.taxId ?? null,
      default_currency: input.defaultCurrency ?? null,
      revision: 1,
      created_at: now,
      updated_at: now,
    };
    if (row.email_normalized !== null) {
      const existing = await ctx.db
        .selectFrom('parties')
        .select('id')
        .where('organization_id', '=', ctx.organizationId)
        .where('email_normalized', '=', row.email_normalized)
        .executeTakeFirst();
      if (existing) throw partyEmailTaken();
    }
    try {
      await ctx.db.insertInto('parties').values(row).execute();
    } catch (error) {
      // Two requests racing past the check above: the unique index decides.
      if (isUniqueViolation(error)) throw partyEmailTaken();
      throw error;
    }
    await ctx.audit({ recordType: 'party', recordId: row.id, beforeRevision: null, afterRevision: 1 });
    const party = toParty(row);
    await ctx.emit({
      type: 'party.created',
      subject: { type: 'party', id: row.id },
      data: partyEventData(party),
    });
    return toPartyRecord(party);
  },
});
