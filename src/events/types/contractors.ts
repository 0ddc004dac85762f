import { Type } from 'typebox';
import type { EventDefinition } from '../definition.ts';

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const contractorEvents: readonly EventDefinition[] = [
  // invitations
  {
    type: 'invitation.sent',
    subjectType: 'invitation',
    description:
      'A portal invitation was emailed to a contractor (contractors.invite); any open one was replaced.',
    data: Type.Object({
      contractorId: Type.String({ description: 'Contractor id.' }),
      email: Type.String({ description: 'Address the invitation was sent to.' }),
      expiresAt: Type.Integer({ description: 'Unix seconds when the link stops working (7 days).' }),
      replacedInvitationId: NullableString('The open invitation this one replaced, or null.'),
    }),
  },
  {
    type: 'invitation.accepted',
    subjectType: 'invitation',
    description: 'The contractor accepted a portal invitation through its link and joined the portal.',
    data: Type.Object({
      contractorId: Type.String({ description: 'Contractor id.' }),
      email: Type.String({ description: 'Address the invitation was sent to.' }),
      acceptedAt: Type.Integer({ description: 'Unix seconds.' }),
    }),
  },
  {
    type: 'invitation.revoked',
    subjectType: 'invitation',
    description:
      'An open portal invitation was revoked (contractors.invitations.revoke); its link stopped working.',
    data: Type.Object({
      contractorId: Type.String({ description: 'Contractor id.' }),
      email: Type.String({ description: 'Address the invitation was sent to.' }),
      revokedAt: Type.Integer({ description: 'Unix seconds.' }),
    }),
  },
  {
    type: 'contractor.created',
    subjectType: 'contractor',
    description: 'A contractor was added (contractors.create).',
    data: Type.Object({
      displayName: Type.String(),
      email: Type.String(),
      country: NullableString('Two-letter country code.'),
      jobRoleId: NullableString('Job role id.'),
    }),
  },
  {
    type: 'contractor.updated',
    subjectType: 'contractor',
    description:
      'Names, country or portal access changed (contractors.update). `data` holds only the fields that changed, with their new values.',
    data: Type.Object({
      displayName: Type.Optional(Type.String()),
      legalName: Type.Optional(Type.String()),
      country: Type.Optional(NullableString('Two-letter country code.')),
      active: Type.Optional(Type.Boolean({ description: 'Portal access flag.' })),
      unpaidAcknowledged: Type.Optional(
        Type.Boolean({
          description: 'Present (true) when the contractor was deactivated with unpaid hours or payments.',
        }),
      ),
    }),
  },
  {
    type: 'contractor.email_changed',
    subjectType: 'contractor',
    description: 'The contractor email changed (contractors.email.update).',
    data: Type.Object({ email: Type.String(), previousEmail: Type.String() }),
  },
  {
    type: 'contractor.role_assigned',
    subjectType: 'contractor',
    description: 'The contractor job role was set or cleared (contractorOps.roles.assign).',
    data: Type.Object({
      jobRoleId: NullableString('The new job role id, or null when cleared.'),
      previousJobRoleId: NullableString('The job role id before the change.'),
    }),
  },
  {
    type: 'contractor.tax_profile_reviewed',
    subjectType: 'contractor',
    description:
      'A finance member or administrator recorded the reviewed tax profile (contractors.taxProfile.review).',
    data: Type.Object({
      residency: Type.String({ description: 'Two-letter country code of tax residency.' }),
      servicesInCanada: Type.Boolean(),
      identityConfirmed: Type.Boolean(),
      reviewedBy: Type.String({ description: 'Member id of the reviewer.' }),
    }),
  },
  {
    type: 'job_role.saved',
    subjectType: 'job_role',
    description: 'A job role was created or changed (contractorOps.roles.save).',
    data: Type.Object({
      created: Type.Boolean({ description: 'True when the role was created by this save.' }),
      name: Type.String(),
      hourlyRateMinor: Type.String({ description: 'Hourly rate, decimal string of minor units.' }),
      currency: Type.String(),
      payCadence: Type.String(),
      active: Type.Boolean(),
    }),
  },
  {
    type: 'agreement_template.created',
    subjectType: 'agreement_template',
    description:
      'An agreement template was added: a Markdown draft or an uploaded original (contractors.templates.createDraft, contractors.templates.upload).',
    data: Type.Object({
      name: Type.String(),
      kind: Type.String({ description: '`markdown_draft` or `uploaded_original`.' }),
      mediaType: Type.String(),
      sizeBytes: Type.Integer(),
    }),
  },
];
