import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { OPERATIONS } from '../../src/operations/catalog.ts';
import {
  AREA_HELPERS,
  misplacedOperations,
  operationFile,
  operationTestFile,
  strayAreaFiles,
  strayTestFiles,
} from './naming-rules.ts';

const root = path.join(import.meta.dirname, '../..');
const names = OPERATIONS.map((operation) => operation.name);

/** Files one level below each area folder of `dir` (relative to the repository root). */
function areaFiles(dir: string): string[] {
  const abs = path.join(root, dir);
  return readdirSync(abs)
    .filter((area) => statSync(path.join(abs, area)).isDirectory())
    .flatMap((area) => readdirSync(path.join(abs, area)).map((file) => `${dir}/${area}/${file}`));
}

describe('operation files are found from operation names', () => {
  it('operationFile and operationTestFile follow the written rule', () => {
    assert.equal(
      operationFile('contractors.invitations.revoke'),
      'src/operations/contractors/invitations-revoke.ts',
    );
    assert.equal(operationFile('invoices.schedules.pause'), 'src/operations/invoices/schedules-pause.ts');
    assert.equal(operationFile('contractorOps.roles.save'), 'src/operations/contractor-ops/roles-save.ts');
    assert.equal(
      operationFile('invoices.paymentPlans.create'),
      'src/operations/invoices/payment-plans-create.ts',
    );
    assert.equal(
      operationTestFile('invoices.schedules.pause'),
      'test/operations/invoices/schedules-pause.test.ts',
    );
  });

  it('every operation of the catalog is exported by the file its name gives', async () => {
    const found: Array<{ name: string; file: string }> = [];
    for (const file of areaFiles('src/operations').filter((f) => f.endsWith('.ts'))) {
      if (AREA_HELPERS.some((helper) => file.endsWith(`/${helper}`))) continue;
      const module: Record<string, unknown> = await import(pathToFileURL(path.join(root, file)).href);
      for (const value of Object.values(module)) {
        const operation = OPERATIONS.find((candidate) => candidate === value);
        if (operation) found.push({ name: operation.name, file });
      }
    }
    assert.deepEqual(misplacedOperations(found), []);
    assert.deepEqual(
      names.filter((name) => !found.some((entry) => entry.name === name)),
      [],
      'operations not exported from any area file',
    );
  });

  it('an area folder holds only its operations and index.ts, schema.ts, store.ts', () => {
    assert.deepEqual(strayAreaFiles(areaFiles('src/operations'), names), []);
  });

  it('test/operations/<area>/ holds only tests named after an operation (and helpers.ts)', () => {
    assert.deepEqual(strayTestFiles(areaFiles('test/operations'), names), []);
  });

  it('the checks catch a broken layout (deliberately wrong examples)', () => {
    assert.deepEqual(
      misplacedOperations([
        { name: 'contractors.invitations.revoke', file: 'src/operations/invitations/revoke.ts' },
      ]),
      [
        'contractors.invitations.revoke is defined in src/operations/invitations/revoke.ts, expected src/operations/contractors/invitations-revoke.ts',
      ],
    );
    assert.deepEqual(
      strayAreaFiles(['src/operations/invoices/records.ts', 'src/operations/invoices/schema.ts'], names),
      ['src/operations/invoices/records.ts'],
    );
    assert.deepEqual(
      strayTestFiles(
        ['test/operations/invoices/ops-send.test.ts', 'test/operations/invoices/send.test.ts'],
        names,
      ),
      ['test/operations/invoices/ops-send.test.ts'],
    );
  });
});
