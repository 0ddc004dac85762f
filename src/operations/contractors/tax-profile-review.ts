import { Type } from 'typebox';
import { Id, IdempotencyKey, Revision } from '../../contract/formats.ts';
import { dbBool } from '../../db/values.ts';
import { loadForChange } from '../../unit/revision.ts';
import { defineOperation } from '../define.ts';
import { ContractorWithTaxProfile, toContractorWithTaxProfile } from './schema.ts';
import { applyChange, reloadContractor, requireContractor } from './store.ts';

export const reviewTaxProfile = defineOperation({
  name: 'contractors.taxProfile.review',
  summary: "Record a contractor's reviewed tax profile",
  description:
    'A finance member (or administrator) records the tax profile they reviewed: residency, whether services are performed in Canada, and whether the identity was confirmed. Every call is a new review: the revision rises and `reviewed_at`/`reviewed_by` are set, even when the answers are unchanged. contractors.get returns the profile.',
  access: { scopes: ['accounting:read', 'accounting:write'], roles: ['admin', 'finance'] },
  mutation: { idempotencyKeyMax: 150, revision: 'required' },
  input: Type.Object(
    {
      id: Id('Contractor id.'),
      expectedRevision: Revision(),
      residency: Type.String({
        pattern: '^[A-Z]{2}$',
        description: 'Country of tax residency, two uppercase letters.',
      }),
      servicesInCanada: Type.Boolean({ description: 'Whether the contractor performs services in Canada.' }),
      identityConfirmed: Type.Boolean({
        description: "Whether the reviewer confirmed the contractor's identity.",
      }),
      idempotencyKey: Type.Optional(IdempotencyKey(150)),
    },
    { additionalProperties: false },
  ),
  output: ContractorWithTaxProfile,
  example: {
    id: '01927f3e-6a1c-7b2d-8e4f-0123456789ab',
    expectedRevision: 1,
    residency: 'CA',
    servicesInCanada: true,
    identityConfirmed: true,
    idempotencyKey: 'tax-review-0001',
  },
  async run({ ctx, input }) {
    const row = await loadForChange(requireContractor(ctx, input.id), input.expectedRevision);
    await applyChange(ctx, row, {
      tax_residency: input.residency,
      tax_services_in_canada: dbBool(input.servicesInCanada),
      tax_identity_confirmed: dbBool(input.identityConfirmed),
      tax_reviewed_at: ctx.clock.now().toISOString(),
      tax_reviewed_by: ctx.principal.memberId,
    });
    await ctx.emit({
      type: 'contractor.tax_profile_reviewed',
      subject: { type: 'contractor', id: row.id },
      data: {
        residency: input.residency,
        servicesInCanada: input.servicesInCanada,
        identityConfirmed: input.identityConfirmed,
        reviewedBy: ctx.principal.memberId,
      },
    });
    return toContractorWithTaxProfile(await reloadContractor(ctx, row.id));
  },
});
