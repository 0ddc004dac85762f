import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ERROR_CODES } from '../../src/contract/errors.ts';
import { renderErrorsDoc } from '../../src/docs-gen/errors-doc.ts';
import { generatedDocs } from '../../src/docs-gen/index.ts';
import { renderOperationsDoc } from '../../src/docs-gen/operations-doc.ts';
import { OPERATIONS } from '../../src/operations/catalog.ts';
import { acceptsGet, mcpToolName } from '../../src/operations/define.ts';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('generated documents', () => {
  for (const [file, content] of Object.entries(generatedDocs())) {
    it(`${file} is up to date`, () => {
      assert.ok(
        read(file) === content,
        `${file} is out of date with the code: run \`npm run docs\` and commit the result`,
      );
    });
  }

  it('docs/operations.md has a row for every operation with its methods, scopes and MCP tool', () => {
    const doc = renderOperationsDoc(OPERATIONS);
    for (const operation of OPERATIONS) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${operation.name}\` |`));
      assert.ok(row, operation.name);
      assert.ok(row.includes(acceptsGet(operation) ? '| POST, GET |' : '| POST |'), row);
      for (const scope of operation.access.scopes)
        assert.ok(row.includes(scope), `${operation.name} ${scope}`);
      assert.ok(row.includes(mcpToolName(operation) ?? '| — |'), row);
      assert.ok(doc.includes(`### \`${operation.name}\``), operation.name);
    }
  });

  it('docs/errors.md lists every code with its status', () => {
    const doc = renderErrorsDoc();
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      assert.ok(doc.includes(`| \`${code}\` | ${status} |`), code);
    }
  });
});
