import { createRequire } from 'node:module';
import type * as Undici from 'undici';

let loaded: typeof Undici | undefined;

/**
 * undici (about 20 MB resident) is loaded with the first delivery, not at start (issue 16, a lean
 * idle process). It is CommonJS, so a synchronous require keeps the callers synchronous.
 */
export function undici(): typeof Undici {
  loaded ??= createRequire(import.meta.url)('undici') as typeof Undici;
  return loaded;
}

/**
 * An error built once, without a stack trace, for reasons undici is handed again and again (a
 * pool closed, an answer cut off): building a stack for each only to discard it cost CPU.
 */
export function stacklessError(message: string, props: Record<string, unknown> = {}): Error {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return Object.assign(new Error(message), props);
  } finally {
    Error.stackTraceLimit = limit;
  }
}
