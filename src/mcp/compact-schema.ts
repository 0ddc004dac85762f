import {
  MINOR_PATTERN,
  POSITIVE_MINOR_PATTERN,
  SIGNED_MINOR_PATTERN,
  SINGLE_LINE_PATTERN,
  UUID_PATTERN,
} from '../contract/formats.ts';
import { type JsonSchema, mapSubschemas } from '../openapi/schemas.ts';

/**
 * Input schemas as an agent reads them in tools/list (decision 271): every type, enum, format,
 * pattern, bound, default and `required` list kept; prose only where it says something the name
 * and the constraints do not. All of tools/list stays within 80 KB (124 tools) this way; calls
 * are still validated against the operation's own, exact schema.
 */

/** Explained once in the server instructions instead of in every tool. */
const STANDARD_FIELDS = new Set(['idempotencyKey', 'expectedRevision', 'limit', 'offset', 'cursor']);

/** Words that carry no meaning of their own when deciding whether a description repeats a name. */
const FILLER = new Set(
  'a an and as at by for from in is it its of on one or the this to with id ids record'.split(' '),
);

/**
 * The first sentence: up to a full stop followed by a capital, a quote, a backtick or the end,
 * outside parentheses and not after an abbreviation ("e.g. CAD" goes on).
 */
export function firstSentence(text: string): string {
  const ends = /[.!?](?=\s+[A-Z`"(]|$)/g;
  for (let match = ends.exec(text); match; match = ends.exec(text)) {
    const upTo = text.slice(0, match.index + 1);
    const open = (upTo.match(/\(/g) ?? []).length - (upTo.match(/\)/g) ?? []).length;
    if (open === 0 && !/\b(?:e\.g|i\.e|etc|vs|cf)\.$/i.test(upTo)) return upTo.trim();
  }
  return text.trim();
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** `Counterparty name.` for `counterpartyName`, `Contractor id.` for `contractorId`: nothing new. */
function repeatsName(name: string, description: string): boolean {
  const named = new Set(words(name.replace(/([a-z0-9])([A-Z])/g, '$1 $2')));
  return words(description)
    .filter((word) => !FILLER.has(word))
    .every((word) => named.has(word) || named.has(word.replace(/s$/, '')) || named.has(`${word}s`));
}

/** The first sentence, without what the schema states itself (length bounds, the default). */
function shortDescription(description: string): string {
  return firstSentence(description)
    .replace(/,? (?:\d+-\d+|up to \d+|at most \d+) characters/g, '')
    .replace(/ \(default [^)]*\)/g, '')
    .replace(/,? (?:\d+-\d+|\d+ to \d+)(?=\.$)/, '')
    .trim();
}

/** "Kind of account: checking, savings or cash." with exactly those enum values: "Kind of account." */
function withoutEnumList(description: string, values: readonly unknown[] | undefined): string {
  const match = /^(.*?): ([\w, ]+?)\.$/.exec(description);
  if (!match || !values) return description;
  const listed = (match[2] ?? '').split(/,\s*|\s+or\s+|\s+and\s+/).filter(Boolean);
  const same = listed.length === values.length && listed.every((word) => values.includes(word));
  return same ? `${match[1]}.` : description;
}

/** `id`, `partyId`, `memberIds` with format uuid: the name and the tool say whose id it is. */
function isNamedId(name: string, schema: JsonSchema): boolean {
  const items = schema.items as JsonSchema | undefined;
  return /(?:^id|Id|Ids)$/.test(name) && (schema.format === 'uuid' || items?.format === 'uuid');
}

/**
 * `anyOf: [{type: T, ...}, {type: 'null'}]` written as `type: [T, 'null']`, and an enum or null as
 * one enum with null among its values (the same schema, fewer bytes).
 */
function nullableAsTypeList(node: JsonSchema): JsonSchema {
  const options = node.anyOf;
  if (!Array.isArray(options) || options.length !== 2) return node;
  const isNull = (option: unknown) =>
    typeof option === 'object' &&
    option !== null &&
    Object.keys(option).length === 1 &&
    (option as JsonSchema).type === 'null';
  const nullAt = options.findIndex(isNull);
  const other = options[1 - nullAt] as JsonSchema | undefined;
  if (nullAt < 0 || !other) return node;
  const { anyOf: _anyOf, ...rest } = node;
  // The property's own description wins over the one of the type it is made of.
  if (Object.keys(other).some((key) => key in rest && key !== 'description')) return node;
  if (typeof other.type === 'string') return { ...other, ...rest, type: [other.type, 'null'] };
  // An enum without a type (see compactNode): null joins the values.
  if (other.type === undefined && Array.isArray(other.enum))
    return { ...other, ...rest, enum: [...other.enum, null] };
  return node;
}

/** A union of string constants as the equivalent `enum`. */
function constUnionAsEnum(node: JsonSchema): JsonSchema {
  const options = node.anyOf;
  // A string constant, with or without its (redundant) type.
  const isStringConst = (option: unknown) => {
    if (typeof option !== 'object' || option === null) return false;
    const { const: value, type, ...rest } = option as JsonSchema;
    return (
      typeof value === 'string' && (type === undefined || type === 'string') && Object.keys(rest).length === 0
    );
  };
  if (!Array.isArray(options) || options.length === 0 || !options.every(isStringConst)) return node;
  const { anyOf: _anyOf, ...rest } = node;
  return { ...rest, type: 'string', enum: options.map((option) => (option as JsonSchema).const) };
}

function compactNode(node: JsonSchema, topLevel: boolean): JsonSchema {
  let out = mapSubschemas(node, (child) => compactNode(child, false));
  // The 176-character contract pattern (UUID versions 1-8, nil and max) as `format: uuid`.
  if (out.pattern === UUID_PATTERN) {
    delete out.pattern;
    out.format = 'uuid';
  }
  // The 300-character money-range patterns (decision 320) as named formats, said once in the
  // instructions: an exact decimal of minor units within 2^53-1 either way.
  if (
    out.pattern === SIGNED_MINOR_PATTERN ||
    out.pattern === MINOR_PATTERN ||
    out.pattern === POSITIVE_MINOR_PATTERN
  ) {
    out.format =
      out.pattern === MINOR_PATTERN
        ? 'minor-units'
        : out.pattern === POSITIVE_MINOR_PATTERN
          ? 'positive-minor-units'
          : 'signed-minor-units';
    delete out.pattern;
  }
  // Names on one line (decision 389): the long pattern as a named format, said once too.
  if (out.pattern === SINGLE_LINE_PATTERN) {
    out.format = 'single-line';
    delete out.pattern;
  }
  // JSON's own integer limit says nothing to an agent.
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  // Unknown arguments are refused (unknown_field); the instructions say so once for every tool.
  if (out.additionalProperties === false) delete out.additionalProperties;
  out = nullableAsTypeList(constUnionAsEnum(out));
  // An enum (or const) of strings says the type itself.
  const values = Array.isArray(out.enum) ? out.enum : 'const' in out ? [out.const] : undefined;
  if (out.type === 'string' && values?.every((value) => typeof value === 'string')) delete out.type;
  if (typeof out.description === 'string') {
    const short = withoutEnumList(shortDescription(out.description), values);
    if (short.length > 1) out.description = short;
    else delete out.description;
  }
  const properties = out.properties;
  const key = topLevel ? (properties as Record<string, JsonSchema> | undefined)?.idempotencyKey : undefined;
  if (key) {
    // 8-200 characters is said in the instructions; a tool with a lower limit keeps its maxLength.
    if (key.minLength === 8) delete key.minLength;
    if (key.maxLength === 200) delete key.maxLength;
  }
  if (typeof properties === 'object' && properties !== null) {
    for (const [name, child] of Object.entries(properties as Record<string, JsonSchema>)) {
      const description = child.description;
      if (
        typeof description === 'string' &&
        ((topLevel && STANDARD_FIELDS.has(name)) || isNamedId(name, child) || repeatsName(name, description))
      ) {
        delete child.description;
      }
    }
  }
  return out;
}

/** The input schema compacted for agents (see the module comment). */
export function compactForAgents(schema: JsonSchema): JsonSchema {
  return compactNode(schema, true);
}
