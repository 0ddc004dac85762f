import { serveSandbox } from '../../lib/sandbox/child.ts';
import { parseStatement } from './index.ts';
import type { StatementBatch } from './sandboxed.ts';
import type { StatementItem, StatementSource } from './types.ts';

// Entry of the statement reader's sandbox child (scripts/build.mjs bundles it as
// statement-sandbox.mjs). One task: read a file, answering a batch of items per pull.

const BATCH = 500;

async function* parseInBatches(source: StatementSource): AsyncGenerator<StatementBatch> {
  const parse = parseStatement({ ...source, bytes: Buffer.from(source.bytes) });
  // First what was detected (the file's format is known before any line is read).
  yield { detection: parse.detection, items: [] };
  let items: StatementItem[] = [];
  for await (const item of parse.items) {
    items.push(item);
    if (items.length >= BATCH) {
      yield { detection: parse.detection, items };
      items = [];
    }
  }
  yield { detection: parse.detection, items };
}

serveSandbox({ parse: (input) => parseInBatches(input as StatementSource) });
