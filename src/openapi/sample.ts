import type { JsonSchema } from './schemas.ts';

/**
 * A sample value for a schema: the response examples of the OpenAPI document (and so of /docs and
 * the client's docs), derived from the output schemas so they never drift from them. Every value
 * must validate against its schema: the OpenAPI test checks each example with the schema, and the
 * linter checks them again. A schema's own `examples`/`default` wins over a derived value.
 */

const ID = '01920000-0000-7000-8000-000000000001';

/** Samples for the patterns of src/contract/formats.ts and the invoicing formats. */
const PATTERN_SAMPLES: ReadonlyArray<[RegExp, string]> = [
  [/^\^\(\?:\[0-9a-fA-F\]\{8\}/, ID],
  [/^\^\[A-Z\]\{2\}\$$/, 'CA'],
  [/^\^\[A-Z\]\{3\}\$$/, 'CAD'],
  [/^\^\[0-9a-f\]\{64\}\$$/, 'a'.repeat(64)],
  [/^\^\[1-9\]/, '1'],
  [/^\^\(0\|\[1-9\]\[0-9\]\{0,2\}\)\(\\\.\[0-9\]\{1,4\}\)\?\$$/, '13'],
  [/^\^\(0\|\[1-9\]\[0-9\]\{0,8\}\)\(\\\.\[0-9\]\{1,4\}\)\?\$$/, '2'],
  [/^\^\(0\|\[1-9\]\[0-9\]/, '125000'],
  [/^\^\(0\|-\?\[1-9\]/, '-4990'],
  // The money range's patterns (src/contract/formats.ts, decision 320).
  [/^\^\(0\|-\?\(\?:\[1-9\]/, '-4990'],
  [/^\^\(0\|\(\?:\[1-9\]/, '125000'],
];

/** Readable text for common field names; anything else gets a neutral word. */
const NAMED_STRINGS: Readonly<Record<string, string>> = {
  url: 'https://hooks.example.com/accounting',
  display_name: 'Ada Lovelace',
  legal_name: 'Ada Lovelace Consulting Ltd.',
  name: 'Northwind Traders',
  description: 'Accounting webhooks',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  secret_hint: 'whsec_Mf…aSw',
  filename: 'invoice-INV-000042.pdf',
  file_name: 'agreement.pdf',
  media_type: 'application/pdf',
  time_zone: 'America/Toronto',
  type: 'invoice.paid',
  created_by: 'member:01920000-0000-7000-8000-000000000002',
  number: 'INV-000042',
  nextCursor: 'eyJrIjpbIjIwMjYtMDktMjJUMTI6MDA6MDAuMDAwWiJdfQ',
};

function matchesPattern(value: string, pattern: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return false;
  }
}

function sampleString(schema: JsonSchema, name: string | undefined): string {
  const format = schema.format;
  if (format === 'date-time') return '2026-09-22T14:30:00.000Z';
  if (format === 'date') return '2026-09-22';
  if (format === 'email') return 'ap@northwind.example';
  if (format === 'uri') return 'https://accounting.example.com/';
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : undefined;
  if (pattern !== undefined) {
    const candidates = [
      ...PATTERN_SAMPLES.filter(([shape]) => shape.test(pattern)).map(([, value]) => value),
      ...(name && NAMED_STRINGS[name] ? [NAMED_STRINGS[name]] : []),
    ];
    return candidates.find((value) => matchesPattern(value, pattern)) ?? 'x';
  }
  let text = (name && NAMED_STRINGS[name]) || 'text';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  if (text.length < min) text = text.padEnd(min, 'x');
  return text.slice(0, max);
}

function nonNull(schemas: readonly JsonSchema[]): JsonSchema | undefined {
  return schemas.find((schema) => schema.type !== 'null') ?? schemas[0];
}

export function sampleOf(schema: JsonSchema, name?: string, depth = 0): unknown {
  if (depth > 12) return null;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const options = schema[keyword];
    if (Array.isArray(options)) {
      const chosen = nonNull(options as JsonSchema[]);
      return chosen ? sampleOf(chosen, name, depth + 1) : null;
    }
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, child]) => [key, sampleOf(child, key, depth + 1)]),
      );
    }
    case 'array': {
      const items = schema.items as JsonSchema | undefined;
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
      return items ? Array.from({ length: count }, () => sampleOf(items, undefined, depth + 1)) : [];
    }
    case 'string':
      return sampleString(schema, name);
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}
