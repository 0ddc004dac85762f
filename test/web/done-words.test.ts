import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findOperation } from '../../src/operations/catalog.ts';
import { doneLine, OPERATIONS_WITH_DONE_WORDS } from '../../src/web/dashboard/done-words.ts';

/** Every operation a dashboard page posts a form to (`actionForm(signed, '<operation>'`). */
function formOperations(): Set<string> {
  const dir = join(import.meta.dirname, '../../src/web/dashboard/pages');
  const found = new Set<string>();
  for (const file of readdirSync(dir)) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const match of text.matchAll(/actionForm\(\s*signed,\s*'([A-Za-z.]+)'/g)) found.add(match[1] ?? '');
  }
  return found;
}

describe('the Done line after an action', () => {
  it('has words of its own for every operation a dashboard form calls', () => {
    const operations = formOperations();
    assert.ok(operations.size > 30, `found ${operations.size} form operations`);
    for (const name of operations)
      assert.ok(OPERATIONS_WITH_DONE_WORDS.includes(name), `${name} has no Done words`);
  });

  it('names only operations of the catalog', () => {
    for (const name of OPERATIONS_WITH_DONE_WORDS) assert.ok(findOperation(name), name);
  });

  it('says what happened, not the summary, and nothing for a name that is no operation', () => {
    assert.equal(doneLine('accounts.create'), 'Done: the account was added.');
    assert.equal(doneLine('no.such.operation'), undefined);
    assert.equal(doneLine(''), undefined);
  });
});
