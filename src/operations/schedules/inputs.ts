import { Type } from 'typebox';
import { DateString, Id } from '../../contract/formats.ts';
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
