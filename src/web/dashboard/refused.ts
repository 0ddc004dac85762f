import { type Html, html } from '../html.ts';
import { errorBox } from '../layout.ts';

/** A form the operation refused: what the member typed, and why (the field it names, if any). */
export interface Refused {
  operation: string;
  values: Readonly<Record<string, string>>;
  error: { code: string; message: string; field: string | undefined; requestId: string };
}

/** The refusal for this form, if the page is being drawn again after one. */
export function refusedFor(refused: Refused | undefined, operation: string): Refused | undefined {
  return refused?.operation === operation ? refused : undefined;
}

/** The typed value after a refusal, else the stored one. */
export function kept(refused: Refused | undefined, name: string, stored: string): string {
  return refused ? (refused.values[name] ?? '') : stored;
}

/**
 * For one input: the message to put after its label (the refusal named this field) and the
 * attributes that tie it to the input (`aria-invalid`, `aria-describedby` with its hint).
 */
export function problem(
  refused: Refused | undefined,
  name: string,
  id: string,
  hintId?: string,
): { message: Html | string; attributes: Html | string } {
  const invalid = refused !== undefined && refused.error.field === name;
  const described = [hintId, invalid ? `${id}-error` : undefined].filter(Boolean).join(' ');
  return {
    message: invalid
      ? html`<p class="field-error" id="${id}-error"><strong>${refused?.error.message ?? ''}</strong> <span class="hint">(code <code>${refused?.error.code ?? ''}</code>)</span></p>`
      : '',
    attributes: html`${described ? html` aria-describedby="${described}"` : ''}${invalid ? html` aria-invalid="true"` : ''}`,
  };
}

/** A refusal that names none of the form's fields (a stale revision): above the form. */
export function generalProblem(refused: Refused | undefined, fields: readonly string[]): Html | string {
  if (!refused || fields.includes(refused.error.field ?? '')) return '';
  return errorBox(refused.error.message, refused.error.code, refused.error.requestId);
}
