import { type Html, html } from '../html.ts';

/**
 * Where a piece of background work stands, as the page's script needs it to update in place:
 * the status in words, a progress (null: not measurable, the bar runs indeterminate), the values
 * shown on the page under `data-live-field` names, and whether the work has ended.
 */
export interface LiveState {
  done: boolean;
  status: string;
  progress: { value: number; max: number } | null;
  fields: Record<string, string>;
}

/**
 * The part of a page that follows running work: a real `<progress>` and a polite status. The
 * script polls `source` and, once the work ends, draws the page again in place; without script
 * the page reloads itself (the layout's `<noscript>` refresh) and the link does it by hand.
 */
export function liveRegion(source: string, page: string, state: LiveState, label: string): Html {
  const { progress } = state;
  return html`<div class="live" data-live="${source}">
<p><progress aria-label="${label}"${progress ? html` max="${String(progress.max)}" value="${String(progress.value)}"` : ''}></progress></p>
<p role="status" aria-live="polite" data-live-status>${state.status}</p>
<p class="hint">This page follows the work as it happens. <a href="${page}">Refresh</a> to see the latest.</p></div>`;
}
