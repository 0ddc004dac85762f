import { Sandbox, SandboxFailure } from '../../lib/sandbox/index.ts';
import type { ExtractionJob } from './sandbox-child.ts';
import {
  defaultLimits,
  type ExtractionInput,
  type ExtractionLimits,
  type ExtractionResult,
  type FailureCode,
} from './types.ts';

// The public entry. Each extraction runs in a warm sandbox child process (src/lib/sandbox) whose
// whole memory the OS bounds (prlimit --data) besides its V8 heap: parsing a hostile PDF, a
// regex over OCR noise or an inflating object stream costs the child, never this process's
// memory or event loop. A wall-clock timer SIGKILLs the child with any tool it started.

const sandbox = new Sandbox(
  {
    compiled: 'extraction-sandbox.mjs',
    source: new URL('./sandbox-child.ts', import.meta.url),
    from: import.meta.url,
  },
  2,
);

/** Peak RSS of the extraction children so far, in KiB (benchmarks). */
export const extractionSandboxPeakRssKb = () => sandbox.peakRssKb;

/** The result's largest size in bytes once serialized (fields and line items of one document). */
const MAX_RESULT_BYTES = 8 * 1024 * 1024;

const failed = (code: FailureCode, reason: string): ExtractionResult => ({ status: 'failed', code, reason });

export async function extractReceipt(
  input: ExtractionInput,
  limits: Partial<ExtractionLimits> = {},
): Promise<ExtractionResult> {
  const all: ExtractionLimits = { ...defaultLimits, ...limits };
  // Refused before a child is spent on it.
  if (input.bytes.length > all.maxBytes) return failed('too_large', `file exceeds ${all.maxBytes} bytes`);
  // Child processes get the time left minus a margin, so they usually fail as themselves first.
  // Only the three input fields cross to the child (a caller's object may carry anything).
  const job: ExtractionJob = {
    input: { bytes: input.bytes, fileName: input.fileName, mediaType: input.mediaType },
    limits: all,
    deadline: Date.now() + all.timeoutMs - 250,
  };
  try {
    return await sandbox.run<ExtractionResult>('extract', job, {
      memoryMb: Math.max(all.maxMemoryMb, all.maxHeapMb + 64),
      heapMb: all.maxHeapMb,
      timeoutMs: all.timeoutMs,
      maxOutputBytes: MAX_RESULT_BYTES,
    });
  } catch (error) {
    if (!(error instanceof SandboxFailure)) {
      return failed(
        'corrupt_file',
        `extraction failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    switch (error.code) {
      case 'parse_memory_limit':
        return failed(
          'memory_limit',
          `extraction needed more than its memory (${all.maxMemoryMb} MiB, heap ${all.maxHeapMb} MiB)`,
        );
      case 'parse_timeout':
        return failed('timeout', `extraction ran past ${all.timeoutMs} ms and was stopped`);
      case 'parse_output_too_large':
        return failed('too_large', `the extracted fields exceed ${MAX_RESULT_BYTES} bytes`);
      case 'parse_crashed':
        return failed('corrupt_file', 'extraction stopped without a result');
    }
  }
}
