import { readFileSync } from 'node:fs';
import path from 'node:path';

// The shared corpus lives beside the project (../shared/corpus), present in CI too.
export function corpusFile(name: string): Buffer {
  return readFileSync(path.resolve('..', 'shared', 'corpus', 'einvoices', name));
}
