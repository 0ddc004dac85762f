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
