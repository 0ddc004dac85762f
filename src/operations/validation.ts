import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { default as addFormatsModule } from 'ajv-formats';
import type { TSchema } from 'typebox';
import { AppError } from '../contract/errors.ts';
import { UUID_PATTERN } from '../contract/formats.ts';

// ajv-formats ships CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Strict input validation: no type coercion, no silent removal of unknown fields (Fastify's
 * defaults do both), defaults filled in. One compiled validator per schema, shared by HTTP and MCP.
 */
const ajv = new Ajv({
  allErrors: false,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
});
addFormats(ajv);

const cache = new WeakMap<TSchema, ValidateFunction>();

function compiled(schema: TSchema): ValidateFunction {
  let validate = cache.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    cache.set(schema, validate);
  }
  return validate;
}

function fieldOf(error: ErrorObject): string | undefined {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') path.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') path.push(String(error.params.additionalProperty));
  return path.length ? path.join('.') : undefined;
}

function describe(error: ErrorObject, field: string | undefined): string {
  const name = field ?? 'body';
  switch (error.keyword) {
    case 'required':
      return `${name} is required.`;
    case 'additionalProperties':
      return `${name} is not an accepted field.`;
    case 'pattern':
      return error.params.pattern === UUID_PATTERN
        ? `${name} must be a UUID.`
        : `${name} has an invalid format.`;
    case 'format':
      return `${name} must be a valid ${String(error.params.format)}.`;
    default:
      return `${name} ${error.message ?? 'is invalid'}.`;
  }
}

/**
 * PostgreSQL text cannot hold U+0000 (the insert fails), and no accounting field needs it, so it
 * is refused on both databases alike: the path of the first string (or key) that carries one.
 */
function fieldWithNul(value: unknown, path: string[]): string[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = fieldWithNul(item, [...path, String(index)]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key.replaceAll('\u0000', '\\u0000')];
      const found = fieldWithNul(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/** Validates (and fills defaults into) a copy of `value`; throws a 400 naming the first bad field. */
export function validateInput<T>(
  schema: TSchema,
  value: unknown,
  unknownCode: 'unknown_field' | 'unknown_parameter' = 'unknown_field',
): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AppError('invalid_json', 'The body must be a JSON object.');
  }
  const copy = structuredClone(value);
  const validate = compiled(schema);
  if (validate(copy)) {
    const nul = fieldWithNul(copy, []);
    if (nul) {
      const field = nul.join('.') || undefined;
      throw new AppError(
        'invalid_input',
        `${field ?? 'body'} must not contain the NUL character (U+0000).`,
        field === undefined ? {} : { field },
      );
    }
    return lowercaseIds(schema, copy) as T;
  }
  const error = validate.errors?.[0];
  if (!error) throw new AppError('invalid_input', 'The input is invalid.');
  const field = fieldOf(error);
  const code = error.keyword === 'additionalProperties' ? unknownCode : 'invalid_input';
  throw new AppError(code, describe(error, field), field === undefined ? {} : { field });
}

/**
 * UUIDs compare case-sensitively in SQLite text columns but not in PostgreSQL's uuid type;
 * lowercasing every id on the way in makes both databases agree.
 */
function lowercaseIds(schema: unknown, value: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return value;
  const node = schema as {
    pattern?: string;
    properties?: Record<string, unknown>;
    items?: unknown;
    anyOf?: unknown[];
  };
  if (typeof value === 'string' && node.pattern === UUID_PATTERN) return value.toLowerCase();
  if (Array.isArray(value) && node.items) return value.map((item) => lowercaseIds(node.items, item));
  if (node.anyOf) return node.anyOf.reduce((acc, option) => lowercaseIds(option, acc), value);
  if (value && typeof value === 'object' && node.properties) {
    const record = value as Record<string, unknown>;
    for (const [key, child] of Object.entries(node.properties)) {
      if (key in record) record[key] = lowercaseIds(child, record[key]);
    }
  }
  return value;
}
