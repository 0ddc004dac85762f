import { Type } from 'typebox';
import { AppError } from '../../contract/errors.ts';
import { Country, Id, IdempotencyKey, Revision, SingleLineText } from '../../contract/formats.ts';
import { asBool, dbBool } from '../../db/values.ts';
import { withdrawSignInLinks } from '../../sessions/sign-in-links.ts';
import { loadForChange } from '../../unit/revision.ts';
import { defineOperation } from '../define.ts';
import { Contractor, toContractor } from './schema.ts';
import { applyChange, formatHours, reloadContractor, requireContractor, unpaidSummary } from './store.ts';

export const updateContractor = defineOperation({
  name: 'contractors.update',
  summary: 'Update a contractor',
  description:
    'Changes display or legal name, country, or portal access (`active`, administrators only). Deactivating a contractor with pending hours or unpaid payments needs `acknowledgeUnpaid: true`. A request that changes nothing returns the contractor as it is (same revision, no event). Email: contractors.email.update; role: contractorOps.roles.assign.',
  access: {
    scopes: ['accounting:read', 'accounting:write'],
    roles: ['admin', 'finance'],
    restrictedFields: { active: ['admin'] },
  },
  mutation: { idempotencyKeyMax: 150, revision: 'required', auditOnlyOnChange: true },
  input: Type.Object(
    {
      id: Id('Contractor id.'),
      expectedRevision: Revision(),
      displayName: Type.Optional(
        SingleLineText(1, 200, 'Name shown in the app, 1-200 characters on one line.'),
      ),
      legalName: Type.Optional(SingleLineText(1, 300, 'Legal name, 1-300 characters on one line.')),
      country: Type.Optional(
        Type.Union([Country, Type.Null()], {
          description: 'Country, two uppercase letters, or null to clear it.',
        }),
      ),
      active: Type.Optional(
        Type.Boolean({ description: 'Portal access flag. Only administrators may send this field.' }),
      ),
      acknowledgeUnpaid: Type.Optional(
        Type.Boolean({
          description:
            'Must be true to deactivate a contractor who still has pending hours or unpaid payments.',
        }),
      ),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: Contractor,
  example: {
    id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab',
    expectedRevision: 1,
    displayName: 'Ada L.',
    idempotencyKey: 'contractor-update-0001',
  },
  async run({ ctx, input }) {
    const row = await loadForChange(requireContractor(ctx, input.id), input.expectedRevision);
    const changes: { displayName?: string; legalName?: string; country?: string | null; active?: boolean } =
      {};
    if (input.displayName !== undefined && input.displayName !== row.display_name)
      changes.displayName = input.displayName;
    if (input.legalName !== undefined && input.legalName !== row.legal_name)
      changes.legalName = input.legalName;
    if (input.country !== undefined && input.country !== row.country) changes.country = input.country;
    if (input.active !== undefined && input.active !== asBool(row.active)) changes.active = input.active;
    // Nothing differs: no new revision, no audit row, no event (documented in docs/contractors.md).
    if (Object.keys(changes).length === 0) return toContractor(await reloadContractor(ctx, row.id));

    let unpaidAcknowledged = false;
    if (changes.active === false) {
      const unpaid = await unpaidSummary(ctx.db, ctx.organizationId, row.id);
      if (unpaid.pendingHoursHundredths > 0n || unpaid.unpaidPayments > 0) {
        if (input.acknowledgeUnpaid !== true) {
          throw new AppError(
            'unpaid_not_acknowledged',
            'The contractor still has pending hours or unpaid payments; send acknowledgeUnpaid: true to deactivate anyway.',
            {
              field: 'acknowledgeUnpaid',
              details: {
                pending_hours: formatHours(unpaid.pendingHoursHundredths),
                unpaid_payments: unpaid.unpaidPayments,
              },
            },
          );
        }
        unpaidAcknowledged = true;
      }
    }

    await applyChange(ctx, row, {
      ...(changes.displayName === undefined ? {} : { display_name: changes.displayName }),
      ...(changes.legalName === undefined ? {} : { legal_name: changes.legalName }),
      ...(changes.country === undefined ? {} : { country: changes.country }),
      ...(changes.active === undefined ? {} : { active: dbBool(changes.active) }),
    });
    // Portal sign-in links mailed before access was turned off do not work when it is back on.
    if (changes.active === false) {
      await withdrawSignInLinks(ctx.db, ctx.clock.now(), {
        organizationId: ctx.organizationId,
        principal: { type: 'contractor', id: row.id },
      });
    }
    await ctx.emit({
      type: 'contractor.updated',
      subject: { type: 'contractor', id: row.id },
      data: { ...changes, ...(unpaidAcknowledged ? { unpaidAcknowledged } : {}) },
    });
    return toContractor(await reloadContractor(ctx, row.id));
  },
});
