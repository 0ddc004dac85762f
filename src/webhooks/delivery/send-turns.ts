// Turns to send, per endpoint, inside one process. A worker may hold more leases of an endpoint
// than it may send at once (settings.ts endpointHold, decision 296); an attempt takes a turn before
// its HTTP request. After a success it gives the turn back as soon as the answer is in, before its
// outcome is written, so the endpoint's next held delivery starts at once. After anything else it
// gives the turn back only once its outcome is written (which may have turned the endpoint off),
// and the next holder reads its endpoint again before sending. Turns are handed out first come,
// first served, so a held delivery waits behind at most one attempt per turn.

export interface SendTurn {
  /** Another attempt to the endpoint had to finish first. */
  waited: boolean;
  /** The attempt that passed this turn on did not succeed: read the endpoint again before sending. */
  afterFailure: boolean;
  /** Ends the turn (the first call counts; later ones do nothing). */
  giveBack(afterFailure?: boolean): void;
}

type Waiter = (afterFailure: boolean) => void;

interface Gate {
  sending: number;
  waiting: Waiter[];
}

export class SendTurns {
  readonly #perEndpoint: number;
  readonly #gates = new Map<string, Gate>();

  constructor(perEndpoint: number) {
    this.#perEndpoint = perEndpoint;
  }

  /** Resolves when this process may send one more request to the endpoint. */
  async take(endpointId: string): Promise<SendTurn> {
    let gate = this.#gates.get(endpointId);
    if (!gate) {
      gate = { sending: 0, waiting: [] };
      this.#gates.set(endpointId, gate);
    }
    const waited = gate.sending >= this.#perEndpoint;
    let afterFailure = false;
    if (!waited) gate.sending += 1;
    else {
      const queue = gate.waiting;
      // The turn passes straight from the finished attempt to this one (sending stays the same).
      afterFailure = await new Promise<boolean>((resolve) => queue.push(resolve));
    }
    let given = false;
    return {
      waited,
      afterFailure,
      giveBack: (failed = false) => {
        if (given) return;
        given = true;
        this.#pass(endpointId, failed);
      },
    };
  }

  /** Requests this process is sending to the endpoint now. */
  sending(endpointId: string): number {
    return this.#gates.get(endpointId)?.sending ?? 0;
  }

  #pass(endpointId: string, afterFailure: boolean): void {
    const gate = this.#gates.get(endpointId);
    if (!gate) return;
    const next = gate.waiting.shift();
    if (next) {
      next(afterFailure);
      return;
    }
    gate.sending -= 1;
    if (gate.sending === 0) this.#gates.delete(endpointId);
  }
}
