import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  findOperation,
  OPERATIONS,
  type OperationInput,
  type OperationName,
  type OperationOutput,
} from '../../src/operations/catalog.ts';
import { validateInput } from '../../src/operations/validation.ts';

// The catalog's types (issue 24): callers inside the process name an operation and get its input
// and output types from the schemas, without a cast. The lines marked @ts-expect-error are checked
// by tsc, which the README's test command runs over test/: each must stay an error.

const list: OperationInput<'categories.list'> = { limit: 10 };
// @ts-expect-error limit is a number
const listWithText: OperationInput<'categories.list'> = { limit: 'ten' };
// @ts-expect-error no operation of that name
const unknownName: OperationName = 'categories.delete';
const state: OperationInput<'inbox.list'>['state'] = 'ready';
// @ts-expect-error not an inbox state (a union built from a list was typed `undefined` before)
const unknownState: OperationInput<'inbox.list'>['state'] = 'archived';
const page: OperationOutput<'categories.list'> = { items: [], limit: 10, offset: 0, nextOffset: null };

describe('the typed catalog', () => {
  it('knows each operation by the name its type gives, and its schemas agree with its types', () => {
    const names: OperationName[] = ['categories.list', 'inbox.list'];
    for (const name of names) assert.equal(findOperation(name)?.name, name);
    assert.equal(new Set(OPERATIONS.map((operation) => operation.name)).size, OPERATIONS.length);
    const categories = findOperation('categories.list');
    const inbox = findOperation('inbox.list');
    assert.ok(categories && inbox);
    // What the types accept, the validator accepts; what they refuse, it refuses.
    assert.deepEqual(validateInput(categories.input, list), { ...list, offset: 0 });
    assert.equal(validateInput<{ state: string }>(inbox.input, { state }).state, state);
    assert.throws(() => validateInput(categories.input, listWithText), /limit/);
    assert.throws(() => validateInput(inbox.input, { state: unknownState }), /ready/);
    assert.equal(findOperation(unknownName), undefined);
    assert.equal(page.nextOffset, null);
  });
});
