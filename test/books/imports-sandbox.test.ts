import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { statementSandboxLimits } from '../../src/books/statements/sandboxed.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { camtLongTextEntry, camtWideEntry, ofxUnclosedCdata } from '../support/hostile-files.ts';
import { createAccount, type ImportRecord, importStatement, transactionsOf } from './support.ts';

// Statement files are read in a sandbox child (src/books/statements/sandboxed.ts). Hostile files at
// the size limit end as failed jobs with a stable code while /healthz keeps answering; each of
// the sandbox's own limits (memory, time, answer size) ends the job with its code and adds nothing.

const LARGEST = 20 * 1024 * 1024 - 4096;

function csv(lines: number): Buffer {
  const rows = ['Date,Description,Amount'];
  for (let i = 0; i < lines; i++)
    rows.push(`2026-01-${String((i % 28) + 1).padStart(2, '0')},Shop ${i},-${i}.25`);
  return Buffer.from(`${rows.join('\n')}\n`);
}

/** Runs the import while asking /healthz; every request sent meanwhile must answer 200. */
async function importWhileProbing(
  app: TestApp,
  admin: Caller,
  account: string,
  file: string,
  bytes: Buffer,
): Promise<ImportRecord> {
  let running = true;
  const statuses: number[] = [];
  const probing = (async () => {
    while (running) {
      const res = await fetch(`${app.baseUrl}/healthz`);
      await res.arrayBuffer();
      statuses.push(res.status);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    return await importStatement(app, admin, account, file, bytes);
  } finally {
    running = false;
    await probing;
    assert.ok(statuses.length > 0);
    assert.ok(
      statuses.every((s) => s === 200),
      String(statuses),
    );
  }
}

async function withLimits<T>(
  limits: Partial<typeof statementSandboxLimits>,
  work: () => Promise<T>,
): Promise<T> {
  const saved = { ...statementSandboxLimits };
  Object.assign(statementSandboxLimits, limits);
  try {
    return await work();
  } finally {
    Object.assign(statementSandboxLimits, saved);
  }
}

for (const dialect of DIALECTS) {
  describe(`statement imports read in the sandbox (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());

    const failsWith = async (file: string, bytes: Buffer, code: string, reason: RegExp) => {
      const account = String((await createAccount(app, admin)).id);
      const job = await importWhileProbing(app, admin, account, file, bytes);
      assert.equal(job.state, 'failed', JSON.stringify(job).slice(0, 400));
      assert.equal(job.error?.code, code, JSON.stringify(job.error));
      assert.match(job.error?.message ?? '', reason);
      assert.equal(job.counts.added, 0);
      assert.equal((await transactionsOf(app, account)).length, 0);
      return job;
    };

    it('hostile files at the size limit fail with their stable code while /healthz answers', async () => {
      await failsWith('cdata.ofx', ofxUnclosedCdata(LARGEST), 'malformed_file', /truncated/);
      const wide = await failsWith('wide.xml', camtWideEntry(LARGEST), 'limit_exceeded', /elements/);
      assert.equal(wide.detection?.format, 'camt053');
      await failsWith('long.xml', camtLongTextEntry(LARGEST), 'limit_exceeded', /characters/);
    });

    it('a file that needs more memory than the reader has: parse_memory_limit, then the next file reads', async () => {
      await withLimits({ memoryMb: 160, heapMb: 64 }, async () => {
        // The same limits read a small file: it is the big file's reading that broke them.
        const small = await importStatement(
          app,
          admin,
          String((await createAccount(app, admin)).id),
          'small.csv',
          csv(20),
        );
        assert.equal(small.state, 'succeeded', JSON.stringify(small.error));
        await failsWith('big.csv', csv(400_000), 'parse_memory_limit', /MiB of memory; split it/);
      });
      const account = String((await createAccount(app, admin)).id);
      const job = await importStatement(app, admin, account, 'small.csv', csv(20));
      assert.equal(job.state, 'succeeded', JSON.stringify(job.error));
      assert.equal(job.counts.added, 20);
    });

    it('a reader that does not answer in time: parse_timeout', async () => {
      await withLimits({ timeoutMs: 1 }, () =>
        failsWith('slow.csv', csv(200_000), 'parse_timeout', /was stopped; split the file/),
      );
    });

    it('answers larger than the cap: parse_output_too_large', async () => {
      await withLimits({ maxOutputBytes: 20_000 }, () =>
        failsWith('wide.csv', csv(2_000), 'parse_output_too_large', /per batch/),
      );
    });
  });
}
