import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every `src/...` path a document names, in backticks. */
export function namedSourceFiles(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(/`(src\/[A-Za-z0-9_./-]+\.ts)`/g)].map((m) => m[1] ?? ''))];
}

describe('docs/architecture.md flows', () => {
  it('every file a flow names exists', () => {
    const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
    const flows = doc.slice(doc.indexOf('## Flows'), doc.indexOf('## Where things go'));
    const named = namedSourceFiles(flows);
    assert.ok(named.length >= 30, `the flows name ${named.length} files`);
    const missing = named.filter((file) => !existsSync(path.join(root, file)));
    assert.deepEqual(missing, [], 'files named in the Flows section that do not exist');
  });

  it('every file a domain README names exists', () => {
    for (const readme of ['src/receipts/README.md', 'src/books/README.md']) {
      const text = readFileSync(path.join(root, readme), 'utf8');
      const named = namedSourceFiles(text);
      assert.ok(named.length >= 3, `${readme} names ${named.length} files`);
      const missing = named.filter((file) => !existsSync(path.join(root, file)));
      assert.deepEqual(missing, [], `${readme}: files named that do not exist`);
    }
  });

  it('the check finds a file that does not exist (a deliberately broken case)', () => {
    const named = namedSourceFiles('see `src/receipts/nowhere.ts` and `src/unit/with-unit.ts`');
    assert.deepEqual(
      named.filter((file) => !existsSync(path.join(root, file))),
      ['src/receipts/nowhere.ts'],
    );
  });
});
