import { serveSandbox } from '../../../src/lib/sandbox/child.ts';

// A sandbox child with tasks that behave and tasks that misbehave, for sandbox.test.ts.

class Coded extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'Coded';
  }
}

serveSandbox({
  echo: async (input) => input,
  count: async function* (input) {
    for (let i = 0; i < (input as number); i++) yield i;
  },
  coded: async () => {
    throw new Coded('limit_exceeded', 'too many things');
  },
  /** Native memory, outside the V8 heap: only the OS limit stops it. */
  buffers: async () => {
    const kept: Buffer[] = [];
    for (;;) kept.push(Buffer.alloc(16 * 1024 * 1024, 1));
  },
  /** The V8 heap. */
  objects: async () => {
    const kept: unknown[] = [];
    for (let i = 0; ; i++) kept.push({ i, s: `${i}-${Math.random()}` });
  },
  spin: async () => {
    for (;;) {
      // a parser gone quadratic
    }
  },
  big: async (input) => Buffer.alloc(input as number, 7),
  pid: async () => process.pid,
});
