import { newId } from '../../lib/ids.ts';
import { findOperation } from '../../operations/catalog.ts';
import { type Html, html } from '../html.ts';
import type { Signed } from './context.ts';
import { isRefusedForm, refusedFields } from './refused.ts';

export interface ActionOptions {
  /** Hidden fields (ids, revisions, JSON values). */
  hidden?: Record<string, string | number>;
  /** Visible inputs, placed before the button. */
  fields?: Html;
  /** Where to go after success; defaults to the current page. */
  back: string;
  style?: 'primary' | 'secondary' | 'danger';
  /** Asks before submitting (with JS); for what cannot be undone. */
  confirm?: string;
  inline?: boolean;
}

/**
 * A form that runs one catalog operation through /dashboard/actions. Each rendering carries a new
 * idempotency key, so a double click or a resubmitted form replays instead of acting twice.
 */
export function actionForm(signed: Signed, operation: string, label: string, options: ActionOptions): Html {
  const hidden = { ...options.hidden, idempotencyKey: `dash-${newId()}` };
  // The form the member just sent and the operation refused: drawn again as they typed it.
  const fields = isRefusedForm(signed.refused, operation, options.hidden ?? {})
    ? refusedFields(signed.refused, signed.viewer, options.fields ?? '')
    : options.fields;
  const style = options.style && options.style !== 'primary' ? options.style : '';
  return html`<form method="post" action="/dashboard/actions/${operation}"${options.inline ? html` class="inline"` : ''}${
    options.confirm ? html` data-confirm="${options.confirm}"` : ''
  }><input type="hidden" name="_csrf" value="${signed.viewer.csrf}"><input type="hidden" name="_back" value="${options.back}">${Object.entries(
    hidden,
  ).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${String(value)}">`,
  )}${fields ?? ''}<button type="submit"${style ? html` class="${style}"` : ''}>${label}</button></form>`;
}

/** A labelled input with an optional hint tied to it for screen readers. */
export function field(
  name: string,
  label: string,
  options: { type?: string; required?: boolean; hint?: string; value?: string; id?: string } = {},
): Html {
  const id = options.id ?? `f-${name}`;
  const hint = options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : '';
  return html`<label for="${id}">${label}</label>${hint}<input id="${id}" name="${name}" type="${options.type ?? 'text'}"${
    options.required ? html` required` : ''
  }${options.hint ? html` aria-describedby="${id}-hint"` : ''}${options.value !== undefined ? html` value="${options.value}"` : ''}>`;
}

export function badge(text: string | Html, tone: 'ok' | 'bad' | 'warn' | '' = ''): Html {
  return html`<span class="badge ${tone}">${text}</span>`;
}

/**
 * A stored code shown in words (`needs_review` -> "Needs review"), the code itself kept in the
 * title for support. Codes without words of their own read as their spaced, capitalised form.
 */
export function coded(code: string, words: Readonly<Record<string, string>> = {}): Html {
  if (!code) return html`—`;
  const spaced = code.replace(/_/g, ' ');
  const text = words[code] ?? `${spaced.charAt(0).toUpperCase()}${spaced.slice(1)}`;
  return html`<span title="Code: ${code}">${text}</span>`;
}

/** Integer query parameter within bounds (offsets, limits); anything else is the default. */
export function intParam(value: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : fallback;
  return Math.min(n, max);
}

/**
 * A value from the page's address when it is one of `values` (a list's filter), typed as one of
 * them so the operation's input type takes it; anything else is no filter.
 */
export function oneOf<const T extends readonly string[]>(values: T, value: unknown): T[number] | undefined {
  return typeof value === 'string' && (values as readonly string[]).includes(value)
    ? (value as T[number])
    : undefined;
}

/** Field access on operation output, which pages treat as plain records. */
export type Row = Record<string, unknown>;
export const rows = (data: unknown, key = 'items'): Row[] =>
  Array.isArray((data as Row | null)?.[key])
    ? ((data as Row)[key] as Row[])
    : Array.isArray(data)
      ? (data as Row[])
      : [];
export const str = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** The roles that may run an operation from the dashboard (an API-only list counts too). */
export function rolesFor(operation: string): readonly string[] {
  const found = findOperation(operation);
  if (!found) return [];
  const { access } = found;
  return access.roles === 'dashboard' ? access.dashboardRoles : access.roles;
}

/**
 * The action's form when the member's role may run it; otherwise what is missing, in words:
 * which role the action needs and the member's own, instead of a button that can only fail
 * (issue 27 part 5: "the dashboard says what is missing when someone may not").
 */
export function actionOrRole(signed: Signed, operation: string, what: string, form: () => Html): Html {
  const roles = rolesFor(operation);
  if (roles.includes(signed.principal.role)) return form();
  if (!roles.length) return html`<p class="hint" role="note"><strong>You cannot ${what}</strong> here.</p>`;
  return html`<p class="hint" role="note" data-role-needed="${operation}"><strong>You cannot ${what}:</strong> it needs the ${roles.join(' or ')} role and yours is ${signed.principal.role}. Ask an admin of ${signed.viewer.organizationName} to do it or to change your role.</p>`;
}
