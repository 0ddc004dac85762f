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

/** `2026-11-25T10:04:00.000Z` -> `2026-11-25 10:04 UTC`; blanks stay a dash. */
export function when(iso: unknown): string {
  return typeof iso === 'string' && iso.length >= 16 ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '—';
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
