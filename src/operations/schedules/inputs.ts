import { Type } from 'typebox';
import { DateString, Id } from '../../contract/formats.ts';
import type { InstallmentLimits } from '../../invoicing/installments.ts';
import { CadenceInput, EndInput, TemplateLines } from '../../invoicing/schedules/wire.ts';

/** Fields of a recurring schedule, shared by create (some required) and update (all optional). */
export const recurringFields = {
  name: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Label shown to the organization, 1-200 characters.',
  }),
  partyId: Id('The party every invoice is addressed to.'),
  currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, uppercase (e.g. CAD).' }),
  lines: TemplateLines,
  paymentTermsDays: Type.Integer({
    minimum: 0,
    maximum: 365,
    description: 'Each invoice is due this many days after its issue date, 0-365 (default 30).',
  }),
  notes: Type.Union([Type.String({ maxLength: 2000 }), Type.Null()], {
    description: 'Printed on every invoice, up to 2000 characters, or null.',
  }),
  cadence: CadenceInput,
  startDate: DateString('First possible invoice date (YYYY-MM-DD). Slots before today are not back-filled.'),
  end: EndInput,
  autoSend: Type.Boolean({
    description: 'true: each invoice is sent to the party at once; false (default): left as a draft.',
  }),
  timeZone: Type.String({
    minLength: 1,
    maxLength: 64,
    description: "IANA time zone whose calendar decides run dates (default: the organization's).",
  }),
};

/**
 * How a payment plan's installments are asked for, by invoices.paymentPlans.create (2-120 of the
 * balance) and invoices.paymentPlans.reschedule (1-120 of what is left): one definition, two bounds.
 */
export function installmentFields(
  limits: InstallmentLimits,
  amountName: string,
  /** Extra rule for the first due date (reschedule: after the last paid installment). */
  firstDueRule = 'today or later',
) {
  const equal = Type.Object(
    {
      count: Type.Integer({
        minimum: limits.min,
        maximum: limits.max,
        description: `Number of installments, ${limits.min}-${limits.max}. Amounts differ by at most one minor unit; the odd units go to the first installments.`,
      }),
      firstDueDate: DateString(`Due date of the first installment, ${firstDueRule} (plan time zone).`),
      interval: Type.Object(
        {
          kind: Type.Union([Type.Literal('weekly'), Type.Literal('monthly')], {
            description: 'weekly, or monthly on the first due date\u2019s day (clamped in short months).',
          }),
          every: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: 52,
              description: 'Every N weeks (1-52) or months (1-12); default 1.',
            }),
          ),
        },
        { additionalProperties: false, description: 'Spacing of the due dates.' },
      ),
    },
    { additionalProperties: false, description: 'Equal installments over an interval.' },
  );
  const custom = Type.Array(
    Type.Object(
      {
        dueDate: DateString(`Due date; strictly later than the previous one, the first ${firstDueRule}.`),
        amountMinor: Type.String({
          pattern: '^(0|[1-9][0-9]{0,15})$',
          description: 'Amount, decimal string of minor units, greater than 0.',
        }),
      },
      { additionalProperties: false },
    ),
    {
      minItems: limits.min,
      maxItems: limits.max,
      description: `Custom installments; the amounts must sum exactly to ${amountName} (else installments_sum_mismatch).`,
    },
  );
  return { equal, custom };
}

export const PLACEHOLDER_ID = '00000000-0000-0000-0000-000000000000';

export const recurringExample = {
  partyId: PLACEHOLDER_ID,
  currency: 'CAD',
  lines: [{ description: 'Monthly retainer', quantity: '1', unitAmountMinor: '150000', taxRate: '13' }],
  paymentTermsDays: 30,
  cadence: { kind: 'monthly' as const, dayOfMonth: 'last' as const },
  startDate: '2026-10-01',
  end: { kind: 'after_count' as const, count: 12 },
  autoSend: true,
};
