/** Time source of the service. Everything time-dependent reads it, so tests move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance; starts at the given instant. */
export class TestClock implements Clock {
  #ms: number;
  constructor(start: Date | string = '2026-01-15T12:00:00.000Z') {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  set(instant: Date | string): void {
    this.#ms = new Date(instant).getTime();
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
