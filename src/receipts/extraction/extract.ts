import { runInWorker } from './pool.ts';
import {
  defaultLimits,
  type ExtractionInput,
  type ExtractionLimits,
  type ExtractionResult,
} from './types.ts';

// The public entry. Each extraction runs in a pooled worker thread with a heap limit, so the
// caller's event loop only waits: parsing a hostile PDF or a regex over OCR noise never blocks
// it. A wall-clock timer terminates the worker and SIGKILLs any child process it started.

export function extractReceipt(
  input: ExtractionInput,
  limits: Partial<ExtractionLimits> = {},
): Promise<ExtractionResult> {
  const all: ExtractionLimits = { ...defaultLimits, ...limits };
  // Refused before a worker is spent on it.
  if (input.bytes.length > all.maxBytes) {
    return Promise.resolve({
      status: 'failed',
      code: 'too_large',
      reason: `file exceeds ${all.maxBytes} bytes`,
    });
  }
  // Child processes get the time left minus a margin, so they usually fail as themselves first.
  // Only the three input fields cross to the worker (a caller's object may carry anything).
  const clean = { bytes: input.bytes, fileName: input.fileName, mediaType: input.mediaType };
  return runInWorker(
    { input: clean, limits: all, deadline: Date.now() + all.timeoutMs - 250 },
    all.timeoutMs,
  );
}
