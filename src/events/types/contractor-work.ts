import { Type } from 'typebox';
import type { EventDefinition } from '../definition.ts';

const S = (description: string) => Type.String({ description });
const contractorId = S('Contractor id.');

/** Hours, agreements and payouts (issue 14); subjects are the records themselves. */
export const contractorWorkEvents: readonly EventDefinition[] = [
  {
    type: 'hours.submitted',
    subjectType: 'contractor_hours',
    description: 'Hours were submitted by the contractor (portal) or for them (contractors.hours.submit).',
    data: Type.Object({
      contractorId,
      workDate: S('The day worked (YYYY-MM-DD).'),
      hours: S('Hours, decimal string ("7.25").'),
      amountMinor: S('Amount at the role rate, decimal string of minor units.'),
    }),
  },
  {
    type: 'hours.updated',
    subjectType: 'contractor_hours',
    description:
      'Submitted hours were changed before review (contractors.hours.update); only changed fields.',
    data: Type.Object({
      contractorId,
      workDate: Type.Optional(S('New day worked.')),
      hours: Type.Optional(S('New hours.')),
      description: Type.Optional(S('New description.')),
    }),
  },
  {
    type: 'hours.approved',
    subjectType: 'contractor_hours',
    description: 'Submitted hours were approved (contractors.hours.approve); a payout can now include them.',
    data: Type.Object({ contractorId, amountMinor: S('Amount, decimal string of minor units.') }),
  },
  {
    type: 'hours.rejected',
    subjectType: 'contractor_hours',
    description: 'Submitted hours were rejected with a reason (contractors.hours.reject).',
    data: Type.Object({ contractorId, reason: S('The reason shown to the contractor.') }),
  },
  {
    type: 'agreement.sent',
    subjectType: 'agreement',
    description: 'An agreement was sent to a contractor from a template (contractors.agreements.send).',
    data: Type.Object({
      contractorId,
      templateId: S('Template id.'),
      documentSha256: S('SHA-256 of the exact document to be signed, lowercase hex.'),
    }),
  },
  {
    type: 'agreement.signed',
    subjectType: 'agreement',
    description: 'Document signed: the contractor signed an agreement in the portal.',
    data: Type.Object({
      contractorId,
      signedName: S('The full name typed by the contractor.'),
      documentSha256: S('SHA-256 of the exact document signed, lowercase hex.'),
      signedAt: Type.Integer({ description: 'Unix seconds.' }),
    }),
  },
  {
    type: 'agreement.voided',
    subjectType: 'agreement',
    description: 'An agreement was voided (contractors.agreements.void); it can no longer be signed.',
    data: Type.Object({ contractorId, reason: S('Why it was voided.'), wasSigned: Type.Boolean() }),
  },
  {
    type: 'payout.created',
    subjectType: 'payout',
    description: 'A payout was created from approved hours and fixed amounts (contractors.payouts.create).',
    data: Type.Object({
      contractorId,
      amountMinor: S('Total, decimal string of minor units.'),
      currency: S('ISO 4217 code.'),
      periodStart: S('First day of the pay period.'),
      periodEnd: S('Last day of the pay period.'),
      hoursCount: Type.Integer({ description: 'How many hours records it pays.' }),
    }),
  },
  {
    type: 'payout.paid',
    subjectType: 'payout',
    description: 'A payout was marked paid (contractors.payouts.markPaid); its hours became paid.',
    data: Type.Object({
      contractorId,
      amountMinor: S('Total, decimal string of minor units.'),
      currency: S('ISO 4217 code.'),
      paidOn: S('Payment date (YYYY-MM-DD).'),
      reference: S('Payment reference.'),
    }),
  },
];
