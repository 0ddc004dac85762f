// The messages of one sandbox conversation (frames.ts carries them). The service starts a task,
// then pulls its answers one at a time: a one-shot task answers one item then `end`; a stream
// answers an item per pull, so the child never runs ahead of what the service has consumed.

export type ToChild = { t: 'start'; task: string; input: unknown; env: { PATH: string } } | { t: 'next' };

export type FromChild =
  | { t: 'item'; value: unknown }
  | { t: 'end'; peakRssKb: number }
  | {
      t: 'error';
      /** The thrown error's own `code` when it has a string one (a domain's stable code). */
      code: string | undefined;
      name: string;
      message: string;
      /** An allocation failed inside the child (its memory limit), as opposed to a task's error. */
      memory: boolean;
      peakRssKb: number;
    };

/**
 * Stable codes of a sandbox failure (the task itself never answered):
 * - parse_memory_limit: the child ran out of its memory (OS limit or V8 heap) and was ended.
 * - parse_timeout: an answer took longer than the wall-clock limit; the child was SIGKILLed.
 * - parse_output_too_large: an answer was larger than the output cap; the child was SIGKILLed.
 * - parse_crashed: the child stopped for another reason (a bug, a signal); see the log.
 */
export type SandboxFailureCode =
  | 'parse_memory_limit'
  | 'parse_timeout'
  | 'parse_output_too_large'
  | 'parse_crashed';

export class SandboxFailure extends Error {
  constructor(
    readonly code: SandboxFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxFailure';
  }
}

/** The task threw: its error, carried from the child by name, code and message. */
export class SandboxTaskError extends Error {
  constructor(
    readonly errorName: string,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxTaskError';
  }
}
