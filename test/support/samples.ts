import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';

// Third-party sample files (real statements and e-invoices). By default the vendored subset in
// test/fixtures/third-party (licences that allow it, see its NOTICE.md), so that the README's test
// command needs nothing beside the clone; `npm run test:corpus` sets SAMPLES_DIR to the shared
// corpus beside the project and runs the same tests over every file there.

export const SAMPLES_DIR = path.resolve(
  process.env.SAMPLES_DIR ?? path.join('test', 'fixtures', 'third-party'),
);

/** `kind/file`, for example `statements/camt053-genkgo-multi-statement.xml`. */
export function hasSample(file: string): boolean {
  return existsSync(path.join(SAMPLES_DIR, file));
}

export function sampleBytes(file: string): Buffer {
  return readFileSync(path.join(SAMPLES_DIR, file));
}

/**
 * A test about one sample file, registered only where that file is present: a case about a file
 * that is not vendored (GPL, AGPL, EUPL) exists in the corpus run alone, so it is never skipped.
 */
export function itWithSample(file: string, name: string, fn: () => Promise<void>): void {
  if (hasSample(file)) it(name, fn);
}
