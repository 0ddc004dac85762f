// Turns to send, per endpoint, inside one process. A worker may hold more leases of an endpoint
// than it may send at once (settings.ts endpointHold, decision 296); an attempt takes a turn before
// its HTTP request. After a success it frees the turn as soon as the answer is in, before its
// outcome is written, so the endpoint's next held delivery starts at once. After anything else
// (a failure, a 410, an error, nothing sent) the endpoint's waiting deliveries wait until that
// outcome is written, which may have turned the endpoint off, and then read their endpoint again
// before sending. Turns are handed out first come, first served, so a held delivery waits behind at
// most one attempt per turn.

export interface SendTurn {
  /** Another attempt to the endpoint had to finish first. */
  waited: boolean;
  /**
   * An attempt to the endpoint ended without a success while this one waited: read the endpoint
   * (and the delivery's lease) again before sending.
   */
  stale: boolean;
  /** The process is stopping: send nothing, give the claim back. */
  cancelled: boolean;
  /**
   * The answer is in. A success frees the turn now; anything else keeps the endpoint's waiting
   * deliveries waiting until giveBack (once the outcome is written).
   */
  answered(success: boolean): void;
  /** Ends the turn (the first call counts; later ones do nothing). */
  giveBack(): void;
}

interface Waiter {
  /** The endpoint's count of unsuccessful endings when this one started waiting. */
  endings: number;
  resume(turn: { stale: boolean; cancelled: boolean }): void;
}

interface Gate {
  sending: number;
  waiting: Waiter[];
  /** Turns whose attempt ended without a success and whose outcome is not written yet. */
  failing: number;
  /** Unsuccessful endings so far (a waiter that saw this change reads its endpoint again). */
  endings: number;
}

export class SendTurns {
  readonly #perEndpoint: number;
  readonly #gates = new Map<string, Gate>();
  #waiting = 0;

  constructor(perEndpoint: number) {
    this.#perEndpoint = perEndpoint;
  }

  /** Attempts waiting for a turn, all endpoints together. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Requests this process may be sending to the endpoint now (turns taken). */
  sending(endpointId: string): number {
    return this.#gates.get(endpointId)?.sending ?? 0;
  }

  /** Resolves when this process may send one more request to the endpoint. */
  async take(endpointId: string): Promise<SendTurn> {
    let gate = this.#gates.get(endpointId);
    if (!gate) {
      gate = { sending: 0, waiting: [], failing: 0, endings: 0 };
      this.#gates.set(endpointId, gate);
    }
    const waited = gate.sending >= this.#perEndpoint || gate.failing > 0 || gate.waiting.length > 0;
    let state = { stale: false, cancelled: false };
    if (!waited) gate.sending += 1;
    else {
      const queue = gate.waiting;
      const endings = gate.endings;
      this.#waiting += 1;
      state = await new Promise((resume) => queue.push({ endings, resume }));
      this.#waiting -= 1;
      if (state.cancelled) return { waited, ...state, answered: () => {}, giveBack: () => {} };
    }
    const owner = gate;
    let freed = false;
    let failed = false;
    const free = (unsuccessful: boolean) => {
      if (freed) return;
      freed = true;
      owner.sending -= 1;
      if (unsuccessful) owner.endings += 1;
      this.#dispatch(endpointId, owner);
    };
    return {
      waited,
      ...state,
      answered: (success) => {
        if (freed || failed) return;
        if (success) free(false);
        else {
          failed = true;
          owner.failing += 1;
        }
      },
      giveBack: () => {
        if (freed) return;
        if (failed) owner.failing -= 1;
        // Ended without a success (or without sending): the next ones read their endpoint again.
        free(true);
      },
    };
  }

  /** Wakes every waiting attempt with `cancelled` (shutdown): they give their claims back unsent. */
  cancelWaiting(): void {
    for (const [endpointId, gate] of this.#gates) {
      for (const waiter of gate.waiting.splice(0)) waiter.resume({ stale: false, cancelled: true });
      if (gate.sending === 0) this.#gates.delete(endpointId);
    }
  }

  /** Hands free turns to waiters, first come first served, while no failure's outcome is pending. */
  #dispatch(endpointId: string, gate: Gate): void {
    while (gate.failing === 0 && gate.sending < this.#perEndpoint) {
      const next = gate.waiting.shift();
      if (!next) break;
      gate.sending += 1;
      next.resume({ stale: next.endings !== gate.endings, cancelled: false });
    }
    if (gate.sending === 0 && gate.waiting.length === 0 && this.#gates.get(endpointId) === gate)
      this.#gates.delete(endpointId);
  }
}
