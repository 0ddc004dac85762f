import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { generateOperations, generateSchemaTypes, OPERATIONS_FILE, SCHEMA_FILE } from '../../sdk/generate.ts';

describe('typed client generated files', () => {
  it('sdk/schema.d.ts matches the current OpenAPI document (run npm run sdk:generate)', async () => {
    assert.equal(readFileSync(SCHEMA_FILE, 'utf8'), await generateSchemaTypes(), 'sdk/schema.d.ts is stale');
  });

  it('sdk/operations.ts matches the current catalog (run npm run sdk:generate)', () => {
    assert.equal(readFileSync(OPERATIONS_FILE, 'utf8'), generateOperations(), 'sdk/operations.ts is stale');
  });
});
