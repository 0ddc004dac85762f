import { Sandbox, SandboxFailure, type SandboxLimits, SandboxTaskError } from '../../lib/sandbox/index.ts';
import {
  type StatementDetection,
  StatementFileError,
  type StatementItem,
  type StatementParse,
  type StatementSource,
} from './types.ts';

// Statement files are read in a sandbox child (src/lib/sandbox): whatever a hostile file makes a
// reader do, the service's memory and event loop only see batches of lines. A broken limit ends
// the import with a stable code (StatementFileError) and a reason a person can act on.

export interface StatementBatch {
  detection: StatementDetection;
  items: StatementItem[];
}

/** As StatementParse, but the detection is known only once the child has answered. */
export interface SandboxedParse {
  detection: StatementDetection | undefined;
  items: StatementParse['items'];
}

/**
 * The reader's limits. A 20 MiB statement (the largest accepted) reads in well under 200 MiB;
 * tests lower them to see each failure.
 */
export const statementSandboxLimits: SandboxLimits = {
  memoryMb: 768,
  heapMb: 512,
  timeoutMs: 60_000,
  maxOutputBytes: 16 * 1024 * 1024,
};

const sandbox = new Sandbox(
  {
    compiled: 'statement-sandbox.mjs',
    source: new URL('./sandbox-child.ts', import.meta.url),
    from: import.meta.url,
  },
  1,
);

/** Peak RSS of the statement reader's children so far, in KiB (benchmarks). */
export const statementSandboxPeakRssKb = () => sandbox.peakRssKb;

/**
 * parseStatement, in the sandbox. `detection` is filled in once the first batch arrives (and
 * kept current); `items` throws StatementFileError for every failure of the file or the sandbox.
 */
export function parseStatementSandboxed(source: StatementSource): SandboxedParse {
  const limits = { ...statementSandboxLimits };
  const parse: SandboxedParse = {
    detection: undefined,
    items: readItems(source, limits, (d) => {
      parse.detection = d;
    }),
  };
  return parse;
}

async function* readItems(
  source: StatementSource,
  limits: SandboxLimits,
  detected: (detection: StatementDetection) => void,
): AsyncGenerator<StatementItem> {
  try {
    for await (const batch of sandbox.stream<StatementBatch>('parse', source, limits)) {
      detected(batch.detection);
      yield* batch.items;
    }
  } catch (error) {
    throw asFileError(error, limits);
  }
}

function asFileError(error: unknown, limits: SandboxLimits): unknown {
  if (error instanceof SandboxFailure) {
    switch (error.code) {
      case 'parse_memory_limit':
        return new StatementFileError(
          error.code,
          `Reading the file needed more than its ${limits.memoryMb} MiB of memory; split it into smaller statements, or check that it is the bank's own export.`,
        );
      case 'parse_timeout':
        return new StatementFileError(
          error.code,
          `The reader gave no lines for ${limits.timeoutMs / 1000} s and was stopped; split the file into smaller statements, or check that it is the bank's own export.`,
        );
      case 'parse_output_too_large':
        return new StatementFileError(
          error.code,
          `The file's lines add up to more than ${limits.maxOutputBytes / 1024 / 1024} MiB per batch; check that it is the bank's own export.`,
        );
      case 'parse_crashed':
        return new StatementFileError(
          error.code,
          'The reader stopped unexpectedly and nothing was imported; try again, and report the file if it happens again.',
        );
    }
  }
  if (error instanceof SandboxTaskError) {
    if (error.errorName === 'StatementFileError' && error.code) {
      return new StatementFileError(error.code as StatementFileError['code'], error.message);
    }
    if (error.errorName === 'RangeError' && /string length|buffer/i.test(error.message)) {
      return new StatementFileError('malformed_file', 'The file could not be read.');
    }
  }
  return error;
}
