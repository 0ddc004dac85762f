import { Type } from 'typebox';
import { DateString } from '../../contract/formats.ts';
import { MAX_LINES } from '../../invoicing/service/index.ts';

/** Input schemas shared by invoices.create and invoices.update. */

export const Currency = Type.String({
  minLength: 1,
  maxLength: 10,
  description: 'Uppercase ISO 4217 code from the supported table (docs/invoicing.md), e.g. `CAD`.',
});

export const LineInput = Type.Object(
  {
    description: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'What is billed, 1-500 characters.',
    }),
    quantity: Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'Decimal string greater than 0, at most 9 integer and 4 fraction digits ("1", "1.5").',
    }),
    unitAmountMinor: Type.String({
      pattern: '^(0|[1-9][0-9]{0,15})$',
      description: 'Price of one unit in minor units, decimal string 0 to 9007199254740991.',
    }),
    taxRate: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 10,
        description: 'Tax percentage 0-100 with at most 4 fraction digits ("13", "8.875"); absent: untaxed.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Lines = Type.Array(LineInput, {
  minItems: 1,
  maxItems: MAX_LINES,
  description: `Line items, 1 to ${MAX_LINES}; totals are computed by the server (per line, half-even).`,
});

export const IssueDate = DateString("Issue date (YYYY-MM-DD); default: the organization's today.");
export const DueDate = DateString(
  'Due date (YYYY-MM-DD), not before the issue date. Give this or paymentTermsDays.',
);
export const PaymentTermsDays = Type.Integer({
  minimum: 0,
  maximum: 365,
  description: 'Days after the issue date the invoice is due, 0-365. Give this or dueDate.',
});
export const ScheduledSendDate = DateString(
  'Day (organization time zone) the draft is sent automatically; on or after the issue date and not after the due date.',
);
export const Notes = Type.String({
  maxLength: 2000,
  description: 'Printed on the invoice, up to 2000 characters.',
});
