import type { ErrorObject } from 'ajv';
import {
  DATE_MESSAGE,
  MINOR_PATTERN,
  NOT_BLANK_PATTERN,
  POSITIVE_MINOR_PATTERN,
  SIGNED_MINOR_PATTERN,
  SINGLE_LINE_PATTERN,
  TIMESTAMP_MESSAGE,
  UUID_PATTERN,
} from '../contract/formats.ts';

/** One invalid field, as listed in the error's `errors` detail. */
export interface Problem {
  /** Dotted path in the caller's spelling; '' for the body itself. */
  field: string;
  code: 'invalid_input' | 'unknown_field' | 'unknown_parameter';
  message: string;
}

/** A body with hundreds of bad fields gets a readable answer, not a second body of errors. */
export const MAX_REPORTED = 50;

/** Patterns whose meaning a person knows better by name than by regular expression. */
const KNOWN_PATTERNS: Record<string, string> = {
  [UUID_PATTERN]: 'a UUID',
  '^[A-Z]{2}$': 'two uppercase letters (ISO 3166-1 alpha-2 country)',
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}$': 'a date as YYYY-MM-DD',
  [SIGNED_MINOR_PATTERN]: 'a decimal string of minor units from -9007199254740991 to 9007199254740991',
  [MINOR_PATTERN]: 'a decimal string of minor units from 0 to 9007199254740991',
  [POSITIVE_MINOR_PATTERN]: 'a decimal string of minor units from 1 to 9007199254740991',
  [NOT_BLANK_PATTERN]: 'text that is not blank (white space only is not a value)',
  [SINGLE_LINE_PATTERN]:
    'one line of text that is not blank, without control characters, line breaks or bidirectional overrides',
};

/** Formats named with what they accept, the date range included (docs/decisions.md 321). */
const KNOWN_FORMATS: Record<string, string> = {
  date: DATE_MESSAGE,
  'date-time': TIMESTAMP_MESSAGE,
};

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') path.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') path.push(String(error.params.additionalProperty));
  return path.join('.');
}

/** The constants an anyOf allows, when every branch is one (typebox unions of literals). */
function allowedConstants(schema: unknown): unknown[] | undefined {
  const branches = (schema as { anyOf?: unknown[] } | undefined)?.anyOf;
  if (!Array.isArray(branches)) return undefined;
  const values: unknown[] = [];
  for (const branch of branches) {
    const node = branch as { const?: unknown; type?: unknown };
    if ('const' in node) values.push(node.const);
    else if (node.type === 'null') values.push(null);
    else return undefined;
  }
  return values;
}

function list(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

function describe(error: ErrorObject, field: string, branches: readonly ErrorObject[] = []): string {
  const name = field || 'body';
  switch (error.keyword) {
    case 'required':
      return `${name} is required.`;
    case 'additionalProperties':
      return `${name} is not an accepted field.`;
    case 'pattern': {
      const pattern = String(error.params.pattern);
      const known = KNOWN_PATTERNS[pattern];
      return known ? `${name} must be ${known}.` : `${name} must match the pattern ${pattern}.`;
    }
    case 'format': {
      const format = String(error.params.format);
      const known = KNOWN_FORMATS[format];
      return known ? `${name} must be ${known}.` : `${name} must be a valid ${format}.`;
    }
    case 'enum':
      return `${name} must be one of: ${list((error.params.allowedValues as unknown[]) ?? [])}.`;
    case 'const':
      return `${name} must be ${JSON.stringify(error.params.allowedValue)}.`;
    case 'anyOf': {
      const allowed = allowedConstants(error.parentSchema);
      if (allowed) return `${name} must be one of: ${list(allowed)}.`;
      // A nullable field and the like: the branch that got past the type check says what is wrong.
      const specific = branches.find((branch) => branch.keyword !== 'type');
      if (specific) return describe(specific, field);
      const types = branches.map((branch) => String(branch.params.type));
      return types.length
        ? `${name} must be ${types.join(' or ')}.`
        : `${name} does not match any accepted form.`;
    }
    default:
      return `${name} ${error.message ?? 'is invalid'}.`;
  }
}

/**
 * Ajv's errors as one problem per field: the errors of an anyOf's branches are folded into the
 * anyOf's own ("must be one of: ..."), so a union of literals reads as its allowed values.
 */
export function problems(
  errors: readonly ErrorObject[],
  unknownCode: 'unknown_field' | 'unknown_parameter',
): Problem[] {
  const anyOfPaths = errors.filter((e) => e.keyword === 'anyOf').map((e) => e.schemaPath);
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const error of errors) {
    // A branch of a failed anyOf (its schemaPath lies under the anyOf's): reported by the anyOf.
    if (anyOfPaths.some((path) => error.schemaPath !== path && error.schemaPath.startsWith(`${path}/`)))
      continue;
    const field = fieldOf(error);
    const branches =
      error.keyword === 'anyOf'
        ? errors.filter(
            (e) => e.instancePath === error.instancePath && e.schemaPath.startsWith(`${error.schemaPath}/`),
          )
        : [];
    const message = describe(error, field, branches);
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      field,
      code: error.keyword === 'additionalProperties' ? unknownCode : 'invalid_input',
      message,
    });
  }
  return out;
}
