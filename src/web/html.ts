import { clockFormat, onWallClock } from '../lib/wall-clock.ts';
/**
 * Escaped-by-default HTML: every interpolated value is escaped unless it is already `Html` (made by
 * this tag or `raw`). Arrays are joined. This is the only way the pages build markup.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeText(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

type Part = Html | string | number | bigint | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeText(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/** Trusted markup only (constants of this module's callers), never data. */
export function raw(text: string): Html {
  return new Html(text);
}

/**
 * An instant as the organization's wall clock: `2026-11-25T10:04:00.000Z` in Europe/Berlin ->
 * `2026-11-25 11:04 (Europe/Berlin)`; in UTC -> `2026-11-25 10:04 UTC`. The zone's name is always
 * printed, so a time is never read in the wrong zone. Blanks and non-instants stay a dash.
 */
export function when(iso: unknown, zone = 'UTC'): string {
  if (typeof iso !== 'string' || iso.length < 16) return '—';
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return '—';
  return onWallClock(instant, zone);
}

/**
 * The inverse for a `datetime-local` input (`2026-11-25T11:04`, the organization's wall clock)
 * -> the ISO instant. A wall time that a DST change skips or repeats resolves to one of its
 * readings (an hour either way, never an error). Undefined when the text is not a wall time.
 */
export function instantFromWallClock(local: string, zone = 'UTC'): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim());
  if (!match) return undefined;
  const [y, mo, d, h, mi, s] = match.slice(1).map((n) => Number(n ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  if (Number.isNaN(asUtc)) return undefined;
  // The zone's offset at a moment: its wall clock read as UTC, minus the moment.
  const offsetAt = (ms: number): number => {
    const parts: Record<string, string> = {};
    for (const part of clockFormat(zone).formatToParts(new Date(ms))) parts[part.type] = part.value;
    const wall = Date.UTC(
      Number(parts.year),
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour),
      Number(parts.minute),
    );
    return wall - Math.floor(ms / 60_000) * 60_000;
  };
  // The second pass takes the offset in force at the instant itself, not at its UTC reading.
  return new Date(asUtc - offsetAt(asUtc - offsetAt(asUtc))).toISOString();
}

/** An instant as the value of a `datetime-local` input in the zone: `2026-11-25T11:04`. */
export function wallClockValue(iso: string, zone = 'UTC'): string {
  return when(iso, zone).slice(0, 16).replace(' ', 'T');
}

/** Minor units (decimal string) -> `1,234.56 EUR` for display; exact, no floating point. */
export function money(minor: unknown, currency: unknown, digits = 2): string {
  if (typeof minor !== 'string' || !/^-?\d+$/.test(minor)) return '—';
  const negative = minor.startsWith('-');
  const padded = (negative ? minor.slice(1) : minor).padStart(digits + 1, '0');
  const whole = padded.slice(0, padded.length - digits).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = digits > 0 ? `.${padded.slice(-digits)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}${typeof currency === 'string' ? ` ${currency}` : ''}`;
}
