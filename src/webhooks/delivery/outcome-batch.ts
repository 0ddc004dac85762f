// When outcomes are written: attempts that finish close together share one transaction
// (decision 261). A transaction per attempt cost more than the attempt itself when receivers
// answer fast (BEGIN, three writes and COMMIT for every delivery).
//
// An outcome waits at most MAX_WAIT_MS, and not at all when no other attempt of this process is
// still running (nothing would join it). While a batch is being written, new outcomes gather and
// go in the next one at once, so under load the batches grow with the write's own duration (group
// commit). A batch holds at most MAX_BATCH outcomes. Each outcome's promise settles when its
// batch committed (or failed): the attempt's slot stays taken until then, and a crash before
// the commit leaves the lease to lapse, so the delivery is attempted again (at-least-once).

/** Outcomes written in one transaction at most. */
export const MAX_BATCH = 64;
/** Longest an outcome waits for others to join its batch. */
export const MAX_WAIT_MS = 2;

interface Waiting<T> {
  item: T;
  resolve(): void;
  reject(error: unknown): void;
}

export interface BatchOptions {
  maxBatch?: number;
  maxWaitMs?: number;
  /** Attempts still running that have not handed in an outcome yet (they may join the batch). */
  running(): number;
}

export class OutcomeBatcher<T> {
  readonly #write: (items: T[]) => Promise<void>;
  readonly #options: Required<Omit<BatchOptions, 'running'>> & Pick<BatchOptions, 'running'>;
  #queue: Waiting<T>[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing = false;
  #inWrite = 0;

  constructor(write: (items: T[]) => Promise<void>, options: BatchOptions) {
    this.#write = write;
    this.#options = {
      maxBatch: options.maxBatch ?? MAX_BATCH,
      maxWaitMs: options.maxWaitMs ?? MAX_WAIT_MS,
      running: options.running,
    };
  }

  /** Outcomes handed in and not yet committed (queued or being written). */
  get waiting(): number {
    return this.#queue.length + this.#inWrite;
  }

  /** Resolves once the item's batch committed; rejects with the batch's error. */
  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#writing) return; // the running write takes what gathered when it ends
    if (this.#queue.length >= this.#options.maxBatch || this.#options.running() === 0) {
      void this.#flush();
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => void this.#flush(), this.#options.maxWaitMs);
    }
  }

  async #flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#writing) return;
    this.#writing = true;
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0, this.#options.maxBatch);
        this.#inWrite = batch.length;
        await this.#writeBatch(batch);
        this.#inWrite = 0;
      }
    } finally {
      this.#writing = false;
      this.#inWrite = 0;
    }
  }

  async #writeBatch(batch: Waiting<T>[]): Promise<void> {
    try {
      await this.#write(batch.map((waiting) => waiting.item));
      for (const waiting of batch) waiting.resolve();
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // One bad outcome must not cost the others theirs: each is written alone once more.
      for (const waiting of batch) {
        try {
          await this.#write([waiting.item]);
          waiting.resolve();
        } catch (alone) {
          waiting.reject(alone);
        }
      }
    }
  }
}
