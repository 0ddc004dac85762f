import { Ajv, type ValidateFunction } from 'ajv';
import { default as addFormatsModule } from 'ajv-formats';
import type { TSchema } from 'typebox';
import { AppError } from '../contract/errors.ts';
import { isDateInRange, isTimestampInRange, UUID_PATTERN } from '../contract/formats.ts';
import { yieldToOthers } from '../lib/yield.ts';
import { MAX_REPORTED, problems } from './validation-report.ts';

// ajv-formats ships CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Strict input validation: no type coercion, no silent removal of unknown fields (Fastify's
 * defaults do both), defaults filled in. One compiled validator per schema, shared by HTTP and MCP.
 * Compiled at an operation's first call in a process, on the event loop: ajv's code optimisation
 * passes tripled the compile time (the slowest operation held the loop 50-300 ms) for validators
 * whose run takes microseconds either way, so they are off (`OPTIONS`).
 */
const OPTIONS = { code: { optimize: false } } as const;
const ajv = new Ajv({
  allErrors: false,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
  // parentSchema on errors: an anyOf of constants is reported with its allowed values.
  verbose: true,
  ...OPTIONS,
});
/**
 * `date` and `date-time` are the service's: a real calendar date (and time) within its one date
 * range (docs/decisions.md 321), so no accepted date can fail a query or a job on either database.
 */
function withServiceFormats(instance: Ajv): Ajv {
  addFormats(instance);
  instance.addFormat('date', { type: 'string', validate: isDateInRange });
  instance.addFormat('date-time', { type: 'string', validate: isTimestampInRange });
  return instance;
}
withServiceFormats(ajv);
/** Run only once an input has failed, to report every invalid field at once (validation-report.ts). */
const ajvAll = new Ajv({
  allErrors: true,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
  verbose: true,
  ...OPTIONS,
});
withServiceFormats(ajvAll);

const cache = new WeakMap<TSchema, ValidateFunction>();
const cacheAll = new WeakMap<TSchema, ValidateFunction>();

function compiled(schema: TSchema, all = false): ValidateFunction {
  const store = all ? cacheAll : cache;
  let validate = store.get(schema);
  if (!validate) {
    validate = (all ? ajvAll : ajv).compile(schema);
    store.set(schema, validate);
  }
  return validate;
}

/**
 * Compiles each schema's validator ahead of its operation's first call (`serve` does it for the
 * whole catalog once it listens), one per turn of the event loop: a request that arrives meanwhile
 * waits for one compile at most, never for the catalog, and no first call pays for its own.
 * Resolves with how many it compiled.
 */
export async function warmValidators(schemas: readonly TSchema[]): Promise<number> {
  let count = 0;
  for (const schema of schemas) {
    await yieldToOthers();
    if (cache.has(schema)) continue;
    compiled(schema);
    count += 1;
  }
  return count;
}

/** Deepest nesting of objects and arrays an input may have; the top-level object is level 1. */
export const MAX_INPUT_DEPTH = 64;

/** U+0000, or a UTF-16 surrogate without its pair (with the `u` flag, a pair is one code point). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point
const UNSTORABLE = /[\u0000\p{Cs}]/u;

/** A key as it can be shown in `field`: NUL and lone surrogates written as `\uXXXX`. */
function printable(key: string): string {
  return key.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point
    /[\u0000\p{Cs}]/gu,
    (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
}

function unstorableText(path: readonly string[], text: string): AppError {
  const field = path.join('.') || undefined;
  const what = text.includes('\u0000')
    ? 'the NUL character (U+0000)'
    : 'an unpaired UTF-16 surrogate (not valid Unicode text)';
  return new AppError(
    'invalid_input',
    `${field ?? 'body'} must not contain ${what}.`,
    field === undefined ? {} : { field },
  );
}

/**
 * Checks the shape of raw input before anything recursive touches it (structuredClone, Ajv,
 * hashing), without recursion itself:
 * - nesting deeper than MAX_INPUT_DEPTH would overflow the stack further on;
 * - PostgreSQL text and jsonb cannot hold U+0000 or unpaired surrogates (the write fails), and
 *   SQLite would silently store U+FFFD instead; no accounting field needs either, so both are
 *   refused on both databases alike, in any string or key. `field` is the path of the first one.
 */
function checkInputText(value: unknown): void {
  // Linear and allocation-light: only strings and containers are visited (numbers, booleans and
  // nulls never are), and a path is built from parent links only when something is reported.
  interface Item {
    value: unknown;
    parent: Item | undefined;
    key: string;
    depth: number;
  }
  const pathOf = (item: Item): string[] => {
    const parts: string[] = [];
    for (let at: Item | undefined = item; at?.parent !== undefined; at = at.parent) parts.push(at.key);
    return parts.reverse();
  };
  const worthVisiting = (child: unknown) =>
    typeof child === 'string' || (typeof child === 'object' && child !== null);
  const stack: Item[] = [{ value, parent: undefined, key: '', depth: 1 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const node = top.value;
    if (typeof node === 'string') {
      if (UNSTORABLE.test(node)) throw unstorableText(pathOf(top), node);
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (top.depth > MAX_INPUT_DEPTH) {
      const field = pathOf(top)[0];
      throw new AppError(
        'invalid_input',
        `${field ?? 'body'} nests objects or arrays more than ${MAX_INPUT_DEPTH} levels deep.`,
        field === undefined ? {} : { field },
      );
    }
    const depth = top.depth + 1;
    // Last pushed is checked first: children go in reverse, each key after its value, so the first
    // offending field in document order is the one reported.
    if (Array.isArray(node)) {
      for (let index = node.length - 1; index >= 0; index -= 1) {
        const child: unknown = node[index];
        if (worthVisiting(child)) stack.push({ value: child, parent: top, key: String(index), depth });
      }
      continue;
    }
    const keys = Object.keys(node);
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const key = keys[index] as string;
      const child: unknown = (node as Record<string, unknown>)[key];
      const shown = UNSTORABLE.test(key) ? printable(key) : key;
      const item: Item = { value: child, parent: top, key: shown, depth };
      if (worthVisiting(child)) stack.push(item);
      // The key itself, reported under its own (escaped) path.
      stack.push({ value: key, parent: top, key: item.key, depth: top.depth });
    }
  }
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
  // Before the clone and the schema: both recurse, and a key is checked even where a map accepts any.
  checkInputText(value);
  const copy = structuredClone(value);
  const validate = compiled(schema);
  if (validate(copy)) return lowercaseIds(schema, copy) as T;
  // The first problem stays the one `field`, `message` and the code describe (as before); the
  // report beside it lists every invalid field, from a second pass that collects them all.
  const first = problems(validate.errors ?? [], unknownCode)[0];
  if (!first) throw new AppError('invalid_input', 'The input is invalid.');
  const all = compiled(schema, true);
  all(structuredClone(value));
  const report = problems(all.errors ?? [], unknownCode);
  const rest = report.filter((p) => p.field !== first.field || p.message !== first.message);
  throw new AppError(first.code, first.message, {
    ...(first.field === '' ? {} : { field: first.field }),
    details: { errors: [first, ...rest].slice(0, MAX_REPORTED) },
  });
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
