import { AppError } from '../contract/errors.ts';

/** The fields a Markdown draft may use, as `{{name}}`. */
export interface AgreementFields {
  'contractor.displayName': string;
  'contractor.legalName': string;
  'contractor.email': string;
  'contractor.country': string;
  'role.name': string;
  'organization.name': string;
  date: string;
}

export const PLACEHOLDERS: readonly (keyof AgreementFields)[] = [
  'contractor.displayName',
  'contractor.legalName',
  'contractor.email',
  'contractor.country',
  'role.name',
  'organization.name',
  'date',
];

const PLACEHOLDER = /\{\{\s*([A-Za-z.]+)\s*\}\}/g;

/**
 * Fills `{{contractor.legalName}}` and the other placeholders. An unknown placeholder is refused
 * (naming the allowed ones) rather than left in a document someone will sign.
 */
export function renderDraft(markdown: string, fields: AgreementFields): string {
  const known = new Set<string>(PLACEHOLDERS);
  const unknown = [...markdown.matchAll(PLACEHOLDER)]
    .map((m) => m[1] ?? '')
    .filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new AppError(
      'invalid_input',
      `The template uses unknown placeholders (${[...new Set(unknown)].join(', ')}); allowed: ${PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}.`,
      { field: 'templateId', details: { unknown_placeholders: [...new Set(unknown)] } },
    );
  }
  return markdown.replace(PLACEHOLDER, (_all, name: string) => fields[name as keyof AgreementFields]);
}
