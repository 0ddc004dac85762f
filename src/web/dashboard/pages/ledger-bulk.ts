import { type Html, html } from '../../html.ts';
import { type Row, str } from '../components.ts';

const DONE: Readonly<Record<string, (n: number, category: string) => string>> = {
  review: (n) => `Marked ${n} ${entries(n)} reviewed.`,
  categorise: (n, category) => `Categorised ${n} ${entries(n)} as ${category}.`,
  both: (n, category) =>
    `Categorised ${n} ${entries(n)} as ${category} and marked ${n === 1 ? 'it' : 'them'} reviewed.`,
};

/** Why one entry of a bulk change was refused, in words; the code stays beside it for support. */
const REASONS: Readonly<Record<string, string>> = {
  revision_conflict:
    'it was changed since this page was shown (by someone else or another tab); look at it again and retry',
  entry_split:
    'it is split across several categories, and one category would replace every line; change it through the API',
  not_found: 'it no longer exists',
  invalid_input: 'the change was refused: the category may have been deactivated',
  allocations_unbalanced: 'its lines would not add up to its amount',
  role_not_allowed: 'your role may not change entries',
  rate_limited: 'too many changes at once; wait a minute and try again',
  idempotency_key_reused: 'this form was already sent with other values; reload the page and try again',
};

function entries(n: number): string {
  return n === 1 ? 'entry' : 'entries';
}

/**
 * The line a bulk change leaves on the ledger (from `?bulk=…&bulkDone=…&bulkFailed=id:code,…`):
 * how many were done and, for each entry that failed, which one and why.
 */
export function bulkOutcome(
  query: Record<string, string>,
  shown: readonly Row[],
  categories: readonly Row[],
): Html | string {
  const action = str(query.bulk);
  const done = DONE[action];
  if (!done) return '';
  if (query.bulkProblem === 'entries')
    return html`<div class="error" role="alert"><p><strong>Tick at least one entry first.</strong> Nothing was changed.</p></div>`;
  if (query.bulkProblem === 'category')
    return html`<div class="error" role="alert"><p><strong>Choose a category first.</strong> Nothing was changed.</p></div>`;
  const count = Number(query.bulkDone ?? 0);
  const found = categories.find((c) => c.id === query.bulkCategory);
  const category = found ? `${str(found.code)} ${str(found.name)}` : 'the category chosen';
  const failed = str(query.bulkFailed)
    .split(',')
    .map((pair) => pair.split(':'))
    .filter((pair): pair is [string, string] => pair.length === 2 && Boolean(pair[0]) && Boolean(pair[1]));
  const named = (id: string) => {
    const entry = shown.find((e) => e.id === id);
    return entry ? `${str(entry.date)} ${str(entry.description)}` : `Entry ${id.slice(0, 8)}…`;
  };
  const line = html`<div class="notice" role="status"><p>${count ? done(count, category) : 'No entry was changed.'}</p></div>`;
  if (!failed.length) return line;
  return html`${line}<div class="error" role="alert"><p><strong>${failed.length} ${entries(failed.length)} could not be changed:</strong></p><ul>${failed.map(
    ([id, code]) =>
      html`<li>${named(id)}: ${REASONS[code] ?? 'it was refused'} <span class="hint">(code <code>${code}</code>)</span></li>`,
  )}</ul></div>`;
}
