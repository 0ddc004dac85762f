import type { Html } from '../../html.ts';
import { badge, coded, type Row, str } from '../components.ts';
import type { LiveState } from '../live-region.ts';

/** A receipt's states as the pages name them (the inbox list and one receipt's page). */
export const STATES = ['needs_review', 'ready', 'processing', 'failed', 'matched', 'ignored'];
export const STATE_WORDS: Record<string, string> = {
  new: 'Waiting to be read',
  needs_review: 'Needs review',
  ready: 'Ready',
  processing: 'Being read',
  failed: 'Could not be read',
  matched: 'Matched',
  ignored: 'Ignored',
};

/** States in which a receipt is still being read (the page follows it live). */
export const READING = new Set(['new', 'processing']);

/**
 * Where a receipt's reading stands, for its page and its live poll (live.ts). Reading has no
 * measurable steps, so the bar is indeterminate until it ends.
 */
export function receiptLive(r: Row): LiveState {
  const state = str(r.state);
  const done = !READING.has(state);
  const status =
    state === 'new'
      ? 'Waiting to be read: what is found appears here.'
      : state === 'processing'
        ? 'Being read: what is found appears here.'
        : state === 'failed'
          ? 'Read: it could not be read.'
          : `Read: ${(STATE_WORDS[state] ?? state).toLowerCase()}.`;
  return {
    done,
    status,
    progress: done ? { value: 1, max: 1 } : null,
    fields: { state: STATE_WORDS[state] ?? state },
  };
}

/** A state as a badge: bad when it failed, a warning when it needs review, good when matched. */
export function stateBadge(state: string): Html {
  const tone =
    state === 'failed' ? 'bad' : state === 'needs_review' ? 'warn' : state === 'matched' ? 'ok' : '';
  return badge(coded(state, STATE_WORDS), tone);
}
