import { Type } from 'typebox';
import { notFound, revisionConflict } from '../../contract/errors.ts';
import { CurrencyCode, Email, Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { dbJson } from '../../db/values.ts';
import { loadParty } from '../../invoicing/invoices/index.ts';
import { isSupportedCurrency } from '../../invoicing/money.ts';
import { defineOperation } from '../define.ts';
import {
  AddressLines,
  Country,
  changedFields,
  Party,
  PartyName,
  partyEmailTaken,
  partyEventData,
  TaxId,
  toPartyRecord,
  unsupportedCurrency,
} from './schema.ts';

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) =>
  Type.Optional(Type.Union([schema, Type.Null()], { description: `${description} null clears it.` }));

export const updateParty = defineOperation({
  name: 'parties.update',
  summary: 'Change a party',
  description:
    'Absent fields keep their value; null clears an optional one. Invoices already sent keep the details printed on them.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Party id.'),
      expectedRevision: Revision(),
      name: Type.Optional(PartyName),
      email: nullable(Email('Where invoices are emailed; unique in the organization.'), 'Email.'),
      addressLines: Type.Optional(AddressLines),
      country: nullable(Country, 'Country.'),
      taxId: nullable(TaxId, 'Tax id.'),
      defaultCurrency: nullable(CurrencyCode('Currency suggested for new invoices.'), 'Default currency.'),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Party,
  example: {
    id: '00000000-0000-0000-0000-000000000000',
    expectedRevision: 1,
    name: 'Northwind Traders Ltd.',
  },
  async run({ ctx, input }) {
    const current = await loadParty(ctx.db, ctx.organizationId, input.id);
    if (!current) throw notFound('Party', 'id');
    if (current.revision !== input.expectedRevision) throw revisionConflict(current.revision);
    if (input.defaultCurrency && !isSupportedCurrency(input.defaultCurrency)) {
      throw unsupportedCurrency('defaultCurrency', input.defaultCurrency);
    }
    const email = input.email === undefined ? current.email : input.email;
    const emailNormalized = email?.toLowerCase() ?? null;
    if (emailNormalized !== null && emailNormalized !== current.email?.toLowerCase()) {
      const other = await ctx.db
        .selectFrom('parties')
        .select('id')
        .where('organization_id', '=', ctx.organizationId)
        .where('email_normalized', '=', emailNormalized)
        .where('id', '!=', input.id)
        .executeTakeFirst();
      if (other) throw partyEmailTaken();
    }
    const now = ctx.clock.now().toISOString();
    const pick = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);
    let updated: { numUpdatedRows: bigint };
    try {
      updated = await ctx.db
        .updateTable('parties')
        .set({
          name: input.name ?? current.name,
          email,
          email_normalized: emailNormalized,
          address_lines: dbJson(input.addressLines ?? current.addressLines),
          country: pick(input.country, current.country),
          tax_id: pick(input.taxId, current.taxId),
          default_currency: pick(input.defaultCurrency, current.defaultCurrency),
          revision: current.revision + 1,
          updated_at: now,
        })
        .where('id', '=', input.id)
        .where('organization_id', '=', ctx.organizationId)
        .where('revision', '=', current.revision)
        .executeTakeFirst();
    } catch (error) {
      if (isUniqueViolation(error)) throw partyEmailTaken();
      throw error;
    }
    if (updated.numUpdatedRows === 0n) {
      const latest = await loadParty(ctx.db, ctx.organizationId, input.id);
      throw latest ? revisionConflict(latest.revision) : notFound('Party', 'id');
    }
    await ctx.audit({
      recordType: 'party',
      recordId: input.id,
      beforeRevision: current.revision,
      afterRevision: current.revision + 1,
    });
    const party = await loadParty(ctx.db, ctx.organizationId, input.id);
    if (!party) throw notFound('Party', 'id');
    await ctx.emit({
      type: 'party.updated',
      subject: { type: 'party', id: party.id },
      data: changedFields(partyEventData(current), partyEventData(party)),
    });
    return toPartyRecord(party);
  },
});
