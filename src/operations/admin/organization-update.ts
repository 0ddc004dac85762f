import { Type } from 'typebox';
import { updateOrganization } from '../../admin/organization-settings.ts';
import { IdempotencyKey, Revision, SingleLineText } from '../../contract/formats.ts';
import { defineOperation } from '../define.ts';
import { Organization, toOrganization } from './schema.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

export const updateOrganizationSettings = defineOperation({
  name: 'admin.organization.update',
  summary: "Change the caller's organization settings",
  description:
    'Only the fields sent change; null clears an optional one. The name and time zone appear on invoices, their PDFs and mail from the next document on; documents already sent keep what they were sent with. The prefix applies to invoice numbers taken from now on (the sequence itself continues).',
  access: { scopes: ['accounting:read', 'accounting:write', 'accounting:admin'], roles: ['admin'] },
  mutation: { idempotencyKeyMax: 200, revision: 'required' },
  input: Type.Object(
    {
      expectedRevision: Revision('The organization revision last read (admin.organization.get).'),
      name: Type.Optional(SingleLineText(1, 200, 'Display name, 1-200 characters on one line.')),
      legalName: Type.Optional(
        Nullable(
          SingleLineText(1, 300, 'Registered legal name, 1-300 characters on one line.'),
          'Registered legal name, 1-300 characters, or null.',
        ),
      ),
      address: Type.Optional(
        Nullable(
          Type.String({ minLength: 1, maxLength: 1000 }),
          'Postal address as free text, up to 1000 characters, or null.',
        ),
      ),
      timeZone: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'IANA time zone, e.g. Europe/Paris or UTC.',
        }),
      ),
      defaultCurrency: Type.Optional(
        Nullable(Type.String({ pattern: '^[A-Z]{3}$' }), 'ISO 4217 code (three capital letters), or null.'),
      ),
      invoiceNumberPrefix: Type.Optional(
        Type.String({
          pattern: '^[A-Za-z0-9./_-]{0,20}$',
          description:
            'Put before invoice numbers: 0-20 letters, digits, dot, slash, underscore or hyphen (default INV-).',
        }),
      ),
      mailScanRetentionDays: Type.Optional(
        Type.Union([Type.Integer({ minimum: 1, maximum: 3650 }), Type.Null()], {
          description:
            'Company mail: days the scans of an archived letter are kept (1-3650), then deleted by the retention sweeper (sender, subject, dates and reads stay); null keeps scans until deleted by hand.',
        }),
      ),
      idempotencyKey: Type.Optional(IdempotencyKey(200)),
    },
    { additionalProperties: false },
  ),
  output: Organization,
  example: { expectedRevision: 1, name: 'Acme Ltd', timeZone: 'Europe/London', defaultCurrency: 'GBP' },
  async run({ ctx, input }) {
    const { expectedRevision, idempotencyKey: _key, ...changes } = input;
    return toOrganization(await updateOrganization(ctx, expectedRevision, changes));
  },
});
