import { Type } from 'typebox';
import { taxSummary, taxSummaryCsv } from '../../contractors/tax-summary.ts';
import { defineOperation } from '../define.ts';

const Slip = Type.Object(
  {
    form: Type.String({ description: '`T4A`, `T4A-NR` or `1099-NEC`.' }),
    box: Type.Union([Type.String(), Type.Null()], {
      description:
        'The box the fees go in (T4A 048, 1099-NEC 1); null for the T4A-NR (see the CRA guide RC4445).',
    }),
    basis: Type.String({ description: 'Why the slip applies.' }),
  },
  { additionalProperties: false },
);

const Item = Type.Object(
  {
    contractor_id: Type.String({ description: 'Contractor id.' }),
    display_name: Type.String({ description: 'Display name.' }),
    legal_name: Type.String({ description: 'Legal name (the name on the slip).' }),
    residency: Type.Union([Type.String(), Type.Null()], { description: 'Reviewed tax residency, or null.' }),
    services_in_canada: Type.Union([Type.Boolean(), Type.Null()], {
      description: 'Reviewed: services rendered in Canada, or null.',
    }),
    identity_confirmed: Type.Union([Type.Boolean(), Type.Null()], {
      description: 'Reviewed: identity confirmed; null until the tax profile is reviewed.',
    }),
    currency: Type.String({ description: 'Currency of the fees (one item per contractor and currency).' }),
    fees_paid_minor: Type.String({ description: 'Fees paid in the year (cash basis), minor units.' }),
    payout_count: Type.Integer({ description: 'Paid payouts counted.' }),
    slips: Type.Array(Slip, { description: 'Slips that apply; empty when none does.' }),
    withholding_minor: Type.Union([Type.String(), Type.Null()], {
      description:
        'Regulation 105 withholding (15 %) for non-residents rendering services in Canada, or null.',
    }),
    notes: Type.Array(Type.String(), {
      description: 'What still needs a person (review, currency conversion).',
    }),
  },
  { additionalProperties: false },
);

export const taxSummaryOperation = defineOperation({
  name: 'contractors.taxSummary',
  summary: 'Tax year summary: fees paid per contractor and the slips that apply',
  description:
    'Cash basis: payouts marked paid with a payment date in the calendar year. Slips from the reviewed tax profile: T4A box 048 for Canadian residents paid more than CAD 500.00; T4A-NR and 15 % Regulation 105 withholding for non-residents rendering services in Canada; 1099-NEC for US residents paid USD 600.00 or more (USD 2,000.00 from tax year 2026). Rules and sources: docs/contractors.md. Over HTTP, `Accept: text/csv` returns the CSV itself.',
  access: { scopes: ['accounting:read'], roles: ['admin', 'finance'] },
  input: Type.Object(
    {
      year: Type.Integer({ minimum: 2000, maximum: 2100, description: 'Calendar year, 2000-2100.' }),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      year: Type.Integer({ description: 'The calendar year.' }),
      items: Type.Array(Item, { description: 'One item per contractor and currency, by legal name.' }),
      csv: Type.String({ description: 'The same summary as CSV (RFC 4180, CRLF), one row per item.' }),
    },
    { additionalProperties: false },
  ),
  example: { year: 2026 },
  file: {
    mediaTypes: ['text/csv'],
    from: (output) => ({
      filename: `contractor-tax-summary-${output.year}.csv`,
      mediaType: 'text/csv',
      bytes: Buffer.from(output.csv, 'utf8'),
    }),
  },
  async run({ ctx, input }) {
    const items = await taxSummary(ctx.db, ctx.organizationId, input.year);
    return { year: input.year, items, csv: taxSummaryCsv(input.year, items) };
  },
});
