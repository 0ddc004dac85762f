/**
 * In-process nudges. A transaction that commits events notifies the topic `events`; job loops of
 * this process that listen to it (the webhook delivery job) stop their idle sleep and look at
 * once, so `serve` delivers within milliseconds of the commit instead of at the next poll.
 * Other processes still find the work by polling: a nudge is an optimisation, never the only way.
 */
export type WakeupTopic = 'events' | 'books';

export class Wakeups {
  readonly #listeners = new Map<WakeupTopic, Set<() => void>>();

  /** Returns the function that unsubscribes. */
  on(topic: WakeupTopic, listener: () => void): () => void {
    let set = this.#listeners.get(topic);
    if (!set) {
      set = new Set();
      this.#listeners.set(topic, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  notify(topic: WakeupTopic): void {
    for (const listener of this.#listeners.get(topic) ?? []) listener();
  }
}

/**
 * For a unit of work: call the returned function whenever an event is recorded; it queues one
 * `events` nudge to run after the commit, however many events the transaction holds.
 */
export function eventsNudgeAfterCommit(
  wakeups: Wakeups,
  afterCommit: Array<() => Promise<void> | void>,
): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    afterCommit.push(() => wakeups.notify('events'));
  };
}
