import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  Sandbox,
  SandboxFailure,
  type SandboxLimits,
  SandboxTaskError,
} from '../../../src/lib/sandbox/index.ts';

// A real child process under prlimit; each misbehaving task must come back as its stable code
// while the service (this process) keeps its memory and its event loop.

const limits: SandboxLimits = { memoryMb: 256, heapMb: 96, timeoutMs: 15_000, maxOutputBytes: 1024 * 1024 };
const sandbox = new Sandbox(
  { compiled: 'unused.mjs', source: new URL('./fixture-child.ts', import.meta.url), from: import.meta.url },
  1,
);

async function failureOf(work: Promise<unknown>): Promise<SandboxFailure> {
  try {
    await work;
  } catch (error) {
    if (error instanceof SandboxFailure) return error;
    throw error;
  }
  assert.fail('expected a sandbox failure');
}

describe('the parsing sandbox', () => {
  it('answers a one-shot task, Buffers and bigints unchanged, and reuses its warm child', async () => {
    const value = await sandbox.run<{ b: Buffer; n: bigint }>(
      'echo',
      { b: Buffer.from('hi'), n: 12n },
      limits,
    );
    assert.ok(Buffer.isBuffer(value.b));
    assert.equal(value.b.toString(), 'hi');
    assert.equal(value.n, 12n);
    const first = await sandbox.run<number>('pid', null, limits);
    assert.equal(await sandbox.run<number>('pid', null, limits), first);
    assert.notEqual(first, process.pid);
  });

  it('streams a task one pull at a time', async () => {
    const seen: number[] = [];
    for await (const n of sandbox.stream<number>('count', 5, limits)) seen.push(n);
    assert.deepEqual(seen, [0, 1, 2, 3, 4]);
  });

  it("carries a task's own error code back, and the child stays usable", async () => {
    const pid = await sandbox.run<number>('pid', null, limits);
    await assert.rejects(sandbox.run('coded', null, limits), (error: unknown) => {
      assert.ok(error instanceof SandboxTaskError, String(error));
      assert.equal(error.code, 'limit_exceeded');
      assert.equal(error.message, 'too many things');
      return true;
    });
    assert.equal(await sandbox.run<number>('pid', null, limits), pid);
  });

  it('native memory past the OS limit: parse_memory_limit, and the next task gets a fresh child', async () => {
    const pid = await sandbox.run<number>('pid', null, limits);
    const rssBefore = process.memoryUsage().rss;
    const failure = await failureOf(sandbox.run('buffers', null, limits));
    assert.equal(failure.code, 'parse_memory_limit', failure.message);
    assert.match(failure.message, /256 MiB/);
    assert.ok(process.memoryUsage().rss - rssBefore < 64 * 1024 * 1024);
    assert.notEqual(await sandbox.run<number>('pid', null, limits), pid);
  });

  it('a heap that outgrows its limit: parse_memory_limit', async () => {
    const failure = await failureOf(sandbox.run('objects', null, limits));
    assert.equal(failure.code, 'parse_memory_limit', failure.message);
  });

  it('a task that never answers: parse_timeout, while this event loop keeps running', async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    try {
      const failure = await failureOf(sandbox.run('spin', null, { ...limits, timeoutMs: 1_500 }));
      assert.equal(failure.code, 'parse_timeout');
      assert.ok(ticks > 0);
    } finally {
      clearInterval(ticker);
    }
  });

  it('an answer over the cap: parse_output_too_large, refused before it is read', async () => {
    const failure = await failureOf(sandbox.run('big', 4 * 1024 * 1024, limits));
    assert.equal(failure.code, 'parse_output_too_large');
    assert.equal((await sandbox.run<Buffer>('big', 1000, limits)).length, 1000);
  });
});
