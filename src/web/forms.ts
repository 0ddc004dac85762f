import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { AppError } from '../contract/errors.ts';
import { iso4217MinorUnit } from '../lib/currencies.ts';
import { typedAmountToMinor } from '../lib/typed-amount.ts';
import { instantFromWallClock } from './html.ts';

export { typedAmountToMinor };

/** A urlencoded form body (the only kind the pages send); anything else is refused with 415. */
export function formBody(request: FastifyRequest): URLSearchParams {
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new AppError(
      'unsupported_media_type',
      'Dashboard forms are sent as application/x-www-form-urlencoded.',
    );
  }
  const body = request.body;
  return new URLSearchParams(Buffer.isBuffer(body) ? body.toString('utf8') : '');
}

interface PropertySchema {
  type?: string | string[];
  items?: { type?: string };
  anyOf?: PropertySchema[];
}

function typeOf(schema: PropertySchema | undefined): string | undefined {
  if (!schema) return undefined;
  if (typeof schema.type === 'string') return schema.type;
  // A nullable field (`X | null`): the non-null member decides.
  const member = schema.anyOf?.find((s) => s.type !== 'null');
  return member ? typeOf(member) : undefined;
}

/**
 * A `datetime-local` field holds the organization's wall clock (`2026-11-25T11:04`); the form names
 * such fields in `_wallclock` (comma separated) and they become the ISO instant the operation takes.
 * Text that is not a wall time stays as it is, so validation names the field.
 */
function wallClockFields(form: URLSearchParams, input: Record<string, unknown>, zone: string): void {
  for (const key of (form.get('_wallclock') ?? '').split(',')) {
    const value = input[key.trim()];
    if (typeof value !== 'string') continue;
    const instant = instantFromWallClock(value, zone);
    if (instant) input[key.trim()] = instant;
  }
}

/**
 * Form fields -> an operation's input, by its schema: integers and numbers from digits, booleans
 * from checkboxes (`on`/`true`), string arrays from repeated fields or comma/line separated text,
 * objects and arrays of objects from JSON hidden fields. Empty fields are left out (optional),
 * unless the form names them in `_null`.
 * Anything that does not convert stays a string, so validation names the field.
 */
export function formToInput(form: URLSearchParams, schema: TSchema, zone = 'UTC'): Record<string, unknown> {
  const properties = ((schema as { properties?: Record<string, PropertySchema> }).properties ?? {}) as Record<
    string,
    PropertySchema
  >;
  const input: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    if (key.startsWith('_')) continue;
    // A textarea's lines arrive as CRLF (the HTML form encoding); stored text uses LF.
    const values = form.getAll(key).map((v) => v.replace(/\r\n?/g, '\n'));
    const first = values[0] ?? '';
    const property = properties[key];
    const type = typeOf(property);
    if (type === 'array') {
      const items = property?.items?.type;
      const parts = values.flatMap((v) => (items === 'object' ? [v] : v.split(/[,\n]/)));
      const kept = parts.map((v) => v.trim()).filter((v) => v !== '');
      if (kept.length > 0) input[key] = items === 'object' ? kept.map(parseJson) : kept;
      continue;
    }
    if (first === '') continue;
    if (type === 'integer' || type === 'number')
      input[key] = /^-?\d+(\.\d+)?$/.test(first) ? Number(first) : first;
    else if (type === 'boolean') input[key] = first === 'on' || first === 'true';
    else if (type === 'object') input[key] = parseJson(first);
    else input[key] = first;
  }
  wallClockFields(form, input, zone);
  amountFields(form, input);
  nullFields(form, input);
  return input;
}

/**
 * A form cannot send null: fields it names in `_null` (comma separated) that arrive empty become
 * null, the operation's way to clear a value (a contractor's job role, a role's description).
 * Other empty fields stay left out, which keeps the stored value.
 */
function nullFields(form: URLSearchParams, input: Record<string, unknown>): void {
  for (const key of (form.get('_null') ?? '').split(',').map((k) => k.trim())) {
    if (key && form.has(key) && (form.get(key) ?? '').trim() === '') input[key] = null;
  }
}

/**
 * Fields the form names in `_amounts` (comma separated, each `field`, `field:currencyField` or
 * `field:EUR` when the currency is the record's and not an input) hold amounts typed as people
 * write them; they become minor units by the currency's ISO 4217 exponent (2 when unknown). Text
 * that is not an amount is refused in words naming the field; an empty field stays empty.
 */
function amountFields(form: URLSearchParams, input: Record<string, unknown>): void {
  for (const spec of (form.get('_amounts') ?? '').split(',')) {
    const [key = '', currencyField] = spec.trim().split(':');
    const value = input[key];
    if (typeof value !== 'string') continue;
    const currency =
      currencyField && currencyField in input
        ? input[currencyField]
        : /^[A-Z]{3}$/.test(currencyField ?? '')
          ? currencyField
          : undefined;
    const exponent = typeof currency === 'string' ? (iso4217MinorUnit(currency.toUpperCase()) ?? 2) : 2;
    if (value.trim() === '') continue;
    const minor = typedAmountToMinor(value, exponent);
    // Said in the member's words next to the input, not as the API's "decimal string of minor units".
    if (minor === undefined) {
      throw new AppError(
        'invalid_input',
        `"${value.slice(0, 40)}" is not an amount: type it as printed, for example 23,80 or 1,234.56${exponent === 0 ? ' (this currency has no cents)' : ''}.`,
        { field: key },
      );
    }
    input[key] = minor;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Only our own pages are redirect targets, never another site. */
export function safeBack(value: string | null | undefined, fallback = '/dashboard'): string {
  return value && /^\/dashboard(\/[A-Za-z0-9/_.~%=&?-]*)?$/.test(value) && !value.startsWith('//')
    ? value
    : fallback;
}
