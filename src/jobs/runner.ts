import type { Services } from '../services.ts';
import { listenForWakeups } from '../unit/cross-process-wakeups.ts';
import type { WakeupTopic } from '../unit/wakeups.ts';

/** A recurring piece of background work. `run` returns how much it did (0 = idle). */
export interface Job {
  name: string;
  /** Pause between runs when idle; a run that did work is followed at once by another. */
  intervalMs: number;
  run(services: Services): Promise<number>;
  /** Topics that end an idle pause early (see wakeups.ts). */
  wakeOn?: readonly WakeupTopic[];
}

export interface RunningJobs {
  stop(): Promise<void>;
  /** Runs every job once right now (tests and after-commit nudges). */
  tick(): Promise<void>;
}

/**
 * Runs each job in its own loop. Jobs keep their state in the database (claims with leases), so
 * any number of processes can run the same jobs side by side and a killed one loses nothing.
 */
export function startJobs(services: Services, jobs: readonly Job[]): RunningJobs {
  let stopping = false;
  const loops: Promise<void>[] = [];
  const wakers = new Set<() => void>();

  // Runs in a row that threw, per job: an operator sees a job that keeps failing (decision 330).
  const failuresInARow = new Map<string, number>();
  async function runOnce(job: Job): Promise<number> {
    try {
      const done = await job.run(services);
      failuresInARow.delete(job.name);
      return done;
    } catch (error) {
      const inARow = (failuresInARow.get(job.name) ?? 0) + 1;
      failuresInARow.set(job.name, inARow);
      services.metrics.recordJobFailure(job.name, 'run');
      services.logger.warn({ err: error, job: job.name, failuresInARow: inARow }, 'job run failed');
      return 0;
    }
  }

  // A job a commit wakes may poll at the operator's pace (ACCOUNTING_POLL_INTERVAL); others keep theirs.
  const pauseOf = (job: Job) =>
    job.wakeOn?.length ? (services.config.pollIntervalMs ?? job.intervalMs) : job.intervalMs;
  const unsubscribes: Array<() => void> = [];
  // Nudges from other processes (PostgreSQL): a separate worker starts new work at once.
  const listener = listenForWakeups(services.db, services.wakeups, services.logger);
  for (const job of jobs) {
    // A nudge that arrives while the job runs is kept, so the loop looks again instead of sleeping.
    let nudged = false;
    let wakeSleeper: (() => void) | undefined;
    for (const topic of job.wakeOn ?? []) {
      unsubscribes.push(
        services.wakeups.on(topic, () => {
          nudged = true;
          wakeSleeper?.();
        }),
      );
    }
    loops.push(
      (async () => {
        while (!stopping) {
          nudged = false;
          const done = await runOnce(job);
          if (done > 0 || nudged || stopping) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(finish, pauseOf(job));
            function finish() {
              clearTimeout(timer);
              wakers.delete(finish);
              wakeSleeper = undefined;
              resolve();
            }
            wakers.add(finish);
            wakeSleeper = finish;
          });
        }
      })(),
    );
  }

  return {
    async stop() {
      stopping = true;
      for (const unsubscribe of unsubscribes) unsubscribe();
      for (const wake of [...wakers]) wake();
      await Promise.all(loops);
      await listener.close();
    },
    async tick() {
      for (const job of jobs) await runOnce(job);
    },
  };
}
