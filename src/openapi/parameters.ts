import type { JsonSchema } from './schemas.ts';

const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'null']);

/** True when every value the schema allows can be written as one query-string value. */
function isScalar(schema: JsonSchema): boolean {
  const options = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options)) return options.every((option) => isScalar(option as JsonSchema));
  if (schema.const !== undefined || Array.isArray(schema.enum)) return true;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.every((type) => typeof type === 'string' && SCALAR_TYPES.has(type));
}

/**
 * The GET form of a read: each input property becomes a query parameter. Returns null when a
 * property is an object or array (a query string cannot carry it; such reads are POST-only in
 * the document, although the server would still parse scalar ones).
 */
export function queryParameters(input: JsonSchema, example: JsonSchema | undefined): unknown[] | null {
  const properties = (input.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(input.required) ? (input.required as string[]) : []);
  const parameters: unknown[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    if (!isScalar(schema)) return null;
    const { description, ...rest } = schema;
    const value = example?.[name];
    parameters.push({
      name,
      in: 'query',
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
      ...(value === undefined ? {} : { example: value }),
    });
  }
  return parameters;
}
