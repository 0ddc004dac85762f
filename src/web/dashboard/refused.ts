import { type Html, html, raw } from '../html.ts';
import { errorBox } from '../layout.ts';
import { refill, type Words } from './refill.ts';
import { inWords, type Reader, type RefusalFacts } from './wording.ts';

/**
 * A form the operation refused, carried on the member's request while its page is drawn again:
 * what was typed, and why. `placed` turns true once a form on the page has shown it, so the same
 * refusal is shown once, and above the page when no form on it took it.
 */
export interface Refused {
  operation: string;
  /** Every value of each field as sent (not the `_` fields the dashboard adds). */
  typed: Readonly<Record<string, readonly string[]>>;
  error: RefusalFacts & { requestId: string };
  placed: boolean;
}

/** The code and request id for support, beside every message. */
export function supportLine(refused: Refused): Html {
  return html`(error code <code>${refused.error.code}</code> · request id <code>${refused.error.requestId}</code>)`;
}

/**
 * The form of `operation` identified by these hidden values is the refused one when its
 * operation matches and so do its record ids (`id`, `…Id`): a page with a form per row (a role,
 * a member) shows the refusal in the row it came from. Revisions are not compared: after a
 * conflict the form comes back with the current one.
 */
export function isRefusedForm(
  refused: Refused | undefined,
  operation: string,
  hidden: Readonly<Record<string, string | number>>,
): refused is Refused {
  if (!refused || refused.placed || refused.operation !== operation) return false;
  return Object.entries(hidden).every(
    ([name, value]) => !(name === 'id' || name.endsWith('Id')) || refused.typed[name]?.[0] === String(value),
  );
}

/**
 * The refused form's fields drawn again: typed values kept, the message beside the field it
 * names, or above the fields when the form has no such field (a stale revision, a role).
 */
export function refusedFields(refused: Refused, reader: Omit<Reader, 'label'>, fields: Html | string): Html {
  refused.placed = true;
  const words: Words = (label, control) => inWords(refused.error, { ...reader, label, control });
  const support = supportLine(refused).text;
  const result = refill(String(fields), refused.typed, refused.error.field, words, support);
  if (result.placed) return raw(result.html);
  return html`${refusalBox(refused, reader)}${raw(result.html)}`;
}

/** The refusal as a box (above a form, or above a page no form of which took it). */
export function refusalBox(refused: Refused, reader: Omit<Reader, 'label'>): Html {
  return html`<div data-refusal>${errorBox(inWords(refused.error, reader), refused.error.code, refused.error.requestId)}</div>`;
}
