import { canonicalJson } from '../lib/canonical-json.ts';

/** A JSON Schema (2020-12) node, as TypeBox produces it: plain data. */
export type JsonSchema = { [keyword: string]: unknown };

/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS = [
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalItems',
] as const;
/** Keywords whose value is an array of subschemas. */
const ARRAY_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
/** Keywords whose value maps names to subschemas. */
const MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;

function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep copy as plain JSON: drops symbols and undefined values TypeBox may carry. */
export function plainSchema(schema: unknown): JsonSchema {
  return JSON.parse(JSON.stringify(schema)) as JsonSchema;
}

/** Applies `visit` to every direct subschema of `node` (only schema positions, never data such as `example`). */
export function mapSubschemas(node: JsonSchema, visit: (child: JsonSchema) => JsonSchema): JsonSchema {
  const out: JsonSchema = { ...node };
  for (const keyword of SCHEMA_KEYWORDS) {
    const child = node[keyword];
    if (isSchemaObject(child)) out[keyword] = visit(child);
  }
  for (const keyword of ARRAY_KEYWORDS) {
    const children = node[keyword];
    if (Array.isArray(children))
      out[keyword] = children.map((child) => (isSchemaObject(child) ? visit(child) : child));
  }
  for (const keyword of MAP_KEYWORDS) {
    const map = node[keyword];
    if (isSchemaObject(map)) {
      out[keyword] = Object.fromEntries(
        Object.entries(map).map(([name, child]) => [name, isSchemaObject(child) ? visit(child) : child]),
      );
    }
  }
  return out;
}

/** `contractors.invitations.list` -> `ContractorsInvitationsList`. */
export function pascalName(operationName: string): string {
  return operationName
    .split(/[.\-_\s]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** A component name OpenAPI accepts (`^[a-zA-Z0-9._-]+$`), from a schema's title or $id. */
export function componentName(label: string): string {
  const last = label.split(/[/#]/).filter(Boolean).at(-1) ?? label;
  const cleaned = last.replace(/\.json$/, '').replace(/[^A-Za-z0-9._-]+/g, ' ');
  return pascalName(cleaned.replace(/\s+/g, '.'));
}

/**
 * Named schemas for `components.schemas`. A subschema with a `title` or `$id` becomes a named
 * component referenced by `$ref`, so shared records (a contractor, an endpoint) appear once and
 * the typed client gets real type names. Two different schemas under one name are a catalog bug.
 */
export class SchemaRegistry {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly fingerprints = new Map<string, string>();

  /** Registers `schema` (after hoisting its named subschemas) under `name`; returns a `$ref`. */
  register(name: string, schema: JsonSchema): JsonSchema {
    const body = this.hoistChildren(schema);
    delete body.$id;
    const fingerprint = canonicalJson(body);
    const existing = this.fingerprints.get(name);
    if (existing !== undefined && existing !== fingerprint) {
      throw new Error(`OpenAPI: two different schemas are named ${name}; give one of them another title.`);
    }
    if (existing === undefined) {
      this.fingerprints.set(name, fingerprint);
      this.schemas[name] = body;
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /** The root keeps its place (inline); named descendants become references. */
  hoistChildren(schema: JsonSchema): JsonSchema {
    return mapSubschemas(schema, (child) => this.hoist(child));
  }

  private hoist(schema: JsonSchema): JsonSchema {
    const label =
      typeof schema.title === 'string'
        ? schema.title
        : typeof schema.$id === 'string'
          ? schema.$id
          : undefined;
    if (label === undefined) return this.hoistChildren(schema);
    return this.register(componentName(label), schema);
  }
}

/** The label under which a root schema is published: its own title/$id, else the fallback. */
export function rootName(schema: JsonSchema, fallback: string): string {
  if (typeof schema.title === 'string') return componentName(schema.title);
  if (typeof schema.$id === 'string') return componentName(schema.$id);
  return fallback;
}

/** Removes `$id` everywhere (MCP tool schemas are self-contained and must not re-base references). */
export function withoutIds(schema: JsonSchema): JsonSchema {
  const copy = mapSubschemas(schema, withoutIds);
  delete copy.$id;
  return copy;
}
