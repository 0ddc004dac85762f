/**
 * In-process nudges. A transaction that commits events notifies the topic `events`; job loops of
 * this process that listen to it (the webhook delivery job) stop their idle sleep and look at
 * once, so `serve` delivers within milliseconds of the commit instead of at the next poll.
 * On PostgreSQL the nudge also crosses processes (LISTEN/NOTIFY, src/unit/cross-process-wakeups.ts), so a
 * separate `worker` starts at once too. Polling stays the guarantee: a nudge is an optimisation,
 * never the only way.
 */
export type WakeupTopic = 'events' | 'books' | 'credentials';

/**
 * `credentials` is sent by database triggers (migration 0019) when a key, member or organization
 * changes, and on every (re)connection of the listener: credential caches drop what they hold.
 */
export const WAKEUP_TOPICS: readonly WakeupTopic[] = ['events', 'books', 'credentials'];

export class Wakeups {
  readonly #listeners = new Map<WakeupTopic, Set<() => void>>();
  #publish: ((topic: WakeupTopic) => void) | undefined;
  #hearsOthers = false;

  /**
   * True while this process listens to other processes' nudges (PostgreSQL, connected). Whatever
   * relies on hearing every other process's change (the credential cache) must not rely on it
   * while this is false.
   */
  get hearsOtherProcesses(): boolean {
    return this.#hearsOthers;
  }

  /** Set by the cross-process listener as its session connects and drops. */
  setHearsOtherProcesses(hears: boolean): void {
    this.#hearsOthers = hears;
  }

  /** Also tell other processes (set once per process when the database can carry it). */
  publishWith(publish: (topic: WakeupTopic) => void): void {
    this.#publish = publish;
  }

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

  /** Wakes this process's listeners and, when publishing is on, every other process's. */
  notify(topic: WakeupTopic): void {
    this.notifyHere(topic);
    this.#publish?.(topic);
  }

  /** Wakes this process's listeners only (a nudge that came from another process). */
  notifyHere(topic: WakeupTopic): void {
    for (const listener of this.#listeners.get(topic) ?? []) listener();
  }
}

/**
 * After a unit's commit: one `events` nudge when its events queued background work (webhook
 * deliveries), however many it holds. Events that reached no endpoint queue nothing, so no loop is
 * woken and, on PostgreSQL, no NOTIFY is sent: a create in an organization without webhooks costs
 * no statement after its commit.
 */
export function nudgeWhenWorkQueued(wakeups: Wakeups, units: ReadonlyArray<{ queuedWork: number }>): void {
  if (units.some((unit) => unit.queuedWork > 0)) wakeups.notify('events');
}
