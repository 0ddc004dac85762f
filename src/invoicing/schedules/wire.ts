import { type Static, Type } from 'typebox';
import { AppError } from '../../contract/errors.ts';
import { DateString } from '../../contract/formats.ts';
import type { Cadence, ScheduleEnd } from '../cadence.ts';
import { MAX_END_COUNT, MAX_INTERVAL_MONTHS, MAX_INTERVAL_WEEKS } from '../cadence.ts';

/**
 * Input shapes shared by the schedule operations, and their conversion to the domain types of
 * src/invoicing/cadence.ts. One flat object per shape (a `kind` plus optional fields) rather than
 * a JSON Schema union: a union's validation error cannot name the field at fault, this can.
 */

export const CadenceInput = Type.Object(
  {
    kind: Type.Union(
      [Type.Literal('weekly'), Type.Literal('monthly'), Type.Literal('quarterly'), Type.Literal('yearly')],
      {
        description:
          'weekly (weekday of the start date), monthly, quarterly (every 3 months) or yearly (every 12 months).',
      },
    ),
    intervalWeeks: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_INTERVAL_WEEKS,
        description: 'weekly only: every N weeks, 1-52 (default 1).',
      }),
    ),
    dayOfMonth: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 31 }), Type.Literal('last')], {
        description:
          'monthly, quarterly, yearly (required there): day 1-31, clamped to the last day of shorter months, or "last".',
      }),
    ),
    intervalMonths: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_INTERVAL_MONTHS,
        description: 'monthly only: every N months, 1-12 (default 1).',
      }),
    ),
  },
  { additionalProperties: false, description: 'When invoices are made.' },
);
export type CadenceInput = Static<typeof CadenceInput>;

export const EndInput = Type.Object(
  {
    kind: Type.Union([Type.Literal('never'), Type.Literal('on_date'), Type.Literal('after_count')], {
      description: 'never; on_date (last possible invoice date, inclusive); after_count (N invoices).',
    }),
    date: Type.Optional(DateString('on_date only: the last date an invoice may be made (inclusive).')),
    count: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_END_COUNT,
        description: `after_count only: number of invoices, 1-${MAX_END_COUNT}.`,
      }),
    ),
  },
  { additionalProperties: false, description: 'When the schedule ends.' },
);
export type EndInput = Static<typeof EndInput>;

const QUANTITY = '^(0|[1-9][0-9]{0,8})(\\.[0-9]{1,4})?$';
// Same bounds as invoice lines (src/invoicing/invoices/drafts.ts): at most 9007199254740991.
const MINOR = '^(0|[1-9][0-9]{0,15})$';
const TAX_RATE = '^(0|[1-9][0-9]{0,2})(\\.[0-9]{1,4})?$';

export const TemplateLineInput = Type.Object(
  {
    description: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'What is billed, 1-500 characters.',
    }),
    quantity: Type.String({
      pattern: QUANTITY,
      description: 'Decimal string greater than 0, up to 9 integer and 4 fraction digits ("1", "1.5").',
    }),
    unitAmountMinor: Type.String({
      pattern: MINOR,
      description: 'Price of one unit, decimal string of minor units ("12500" is 125.00).',
    }),
    taxRate: Type.Optional(
      Type.String({ pattern: TAX_RATE, description: 'Tax percentage 0-100, up to 4 decimals ("13").' }),
    ),
  },
  { additionalProperties: false },
);
export type TemplateLineInput = Static<typeof TemplateLineInput>;

export const MAX_TEMPLATE_LINES = 100;
export const TemplateLines = Type.Array(TemplateLineInput, {
  minItems: 1,
  maxItems: MAX_TEMPLATE_LINES,
  description: `Lines of every invoice the schedule makes, 1-${MAX_TEMPLATE_LINES}.`,
});

function invalid(field: string, message: string): AppError {
  return new AppError('invalid_input', message, { field });
}

/** Stored form of a cadence: the caller's kind kept (so `quarterly` reads back as quarterly), defaults filled. */
export interface StoredCadence {
  kind: CadenceInput['kind'];
  intervalWeeks: number | null;
  dayOfMonth: number | 'last' | null;
  intervalMonths: number | null;
}

export function normalizeCadence(input: CadenceInput, field = 'cadence'): StoredCadence {
  if (input.kind === 'weekly') {
    if (input.dayOfMonth !== undefined)
      throw invalid(`${field}.dayOfMonth`, 'weekly cadences have no dayOfMonth.');
    if (input.intervalMonths !== undefined)
      throw invalid(`${field}.intervalMonths`, 'weekly cadences have no intervalMonths.');
    return {
      kind: 'weekly',
      intervalWeeks: input.intervalWeeks ?? 1,
      dayOfMonth: null,
      intervalMonths: null,
    };
  }
  if (input.intervalWeeks !== undefined)
    throw invalid(`${field}.intervalWeeks`, 'intervalWeeks applies to weekly cadences only.');
  if (input.dayOfMonth === undefined)
    throw invalid(`${field}.dayOfMonth`, `${field}.dayOfMonth is required for ${input.kind} cadences.`);
  if (input.kind !== 'monthly' && input.intervalMonths !== undefined)
    throw invalid(`${field}.intervalMonths`, `${input.kind} cadences have a fixed interval.`);
  const intervalMonths =
    input.kind === 'quarterly' ? 3 : input.kind === 'yearly' ? 12 : (input.intervalMonths ?? 1);
  return { kind: input.kind, intervalWeeks: null, dayOfMonth: input.dayOfMonth, intervalMonths };
}

export function toDomainCadence(stored: StoredCadence): Cadence {
  if (stored.kind === 'weekly') return { kind: 'weekly', intervalWeeks: stored.intervalWeeks ?? 1 };
  return {
    kind: 'monthly',
    dayOfMonth: stored.dayOfMonth ?? 'last',
    intervalMonths: stored.intervalMonths ?? 1,
  };
}

export function normalizeEnd(input: EndInput, field = 'end'): ScheduleEnd {
  switch (input.kind) {
    case 'never':
      if (input.date !== undefined) throw invalid(`${field}.date`, 'date applies to on_date only.');
      if (input.count !== undefined) throw invalid(`${field}.count`, 'count applies to after_count only.');
      return { kind: 'never' };
    case 'on_date':
      if (input.count !== undefined) throw invalid(`${field}.count`, 'count applies to after_count only.');
      if (input.date === undefined) throw invalid(`${field}.date`, `${field}.date is required for on_date.`);
      return { kind: 'on_date', date: input.date };
    case 'after_count':
      if (input.date !== undefined) throw invalid(`${field}.date`, 'date applies to on_date only.');
      if (input.count === undefined)
        throw invalid(`${field}.count`, `${field}.count is required for after_count.`);
      return { kind: 'after_count', count: input.count };
  }
}
