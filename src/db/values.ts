/**
 * The one place where column values are normalized as rows leave the data layer
 * (and where JS values are made bindable on both drivers as they go in).
 */

export function asBool(value: unknown): boolean {
  return value === true || value === 1 || value === 1n || value === '1' || value === 't';
}

/** SQLite cannot bind booleans; PostgreSQL accepts '1'/'0' for boolean parameters. */
export function dbBool(value: boolean): number {
  return value ? 1 : 0;
}

export function asJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

export function dbJson(value: unknown): string {
  return JSON.stringify(value);
}

/** pg returns int8 as string, better-sqlite3 as number; both become an exact bigint. */
export function asMinor(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' || typeof value === 'string') return BigInt(value);
  throw new TypeError(`not an integer amount: ${String(value)}`);
}

export function asInt(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

/** What `Date.prototype.toISOString` makes: how timestamps are stored (SQLite) and parsed (pg). */
const CANONICAL_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export function asIso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  // Already normalized (every stored value and every pg timestamptz): no second parse and format,
  // which cost about a tenth of a list's CPU.
  if (typeof value === 'string' && CANONICAL_ISO.test(value)) return value;
  return new Date(String(value)).toISOString();
}

export function asIsoOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : asIso(value);
}
