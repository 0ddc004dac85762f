import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { startValidatingProxy } from '../support/openapi-proxy.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WORK = path.join(ROOT, '.tmp', `readme-example-${process.pid}`);
const EXAMPLE = path.join(WORK, 'example.ts');

/** The first ```ts block under the README's "Typed client" heading, importing the real client. */
function readmeExample(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## Typed client$/m)[1];
  assert.ok(section, 'README has a "Typed client" section');
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(code, 'the section has a ts code block');
  assert.match(code, /from '\.\/sdk\/client\.ts'/);
  return code.replace("from './sdk/client.ts'", "from '../../sdk/client.ts'");
}

before(() => {
  mkdirSync(WORK, { recursive: true });
  writeFileSync(EXAMPLE, readmeExample());
});
after(() => rmSync(WORK, { recursive: true, force: true }));

describe('README typed-client example', () => {
  it('type-checks with the project settings', () => {
    const tsconfig = path.join(WORK, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({ extends: '../../tsconfig.json', include: [], files: ['example.ts'] }),
    );
    const result = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', tsconfig],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  });
});

for (const dialect of DIALECTS) {
  describe(`README typed-client example against a live server (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    it('runs and does what it says, every answer matching the OpenAPI document', async (t) => {
      const proxy = await startValidatingProxy(app.baseUrl);
      t.after(() => proxy.close());
      // Asynchronous: the server answering the example runs in this very process.
      const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>(
        (resolve) => {
          execFile(
            process.execPath,
            ['--import', 'tsx', EXAMPLE],
            {
              cwd: ROOT,
              env: { ...process.env, ACCOUNTING_URL: proxy.url, ACCOUNTING_API_KEY: admin.token },
            },
            (error, stdout, stderr) =>
              resolve({ status: error ? (error.code as number | null) : 0, stdout, stderr }),
          );
        },
      );
      assert.equal(result.status, 0, result.stderr);
      assert.deepEqual(proxy.problems, []);
      assert.ok(proxy.checked() >= 3, `${proxy.checked()} API answers went through the proxy`);
      assert.match(result.stdout, /^created Ada, revision 1$/m);
      assert.match(result.stdout, /^stale revision; the current one is 1$/m);
      assert.match(result.stdout, /^Ada <ada@example\.com>$/m);
      const rows = await app.services.db.kysely
        .selectFrom('contractors')
        .select(['display_name', 'revision'])
        .where('organization_id', '=', admin.organizationId)
        .execute();
      assert.deepEqual(rows, [{ display_name: 'Ada', revision: 1 }]);
    });
  });
}
