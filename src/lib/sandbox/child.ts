import { Socket } from 'node:net';
import { encodeFrame, FrameReader } from './frames.ts';
import type { FromChild, ToChild } from './protocol.ts';

// The child's side (each entry file calls serveSandbox with its tasks). Requests arrive on stdin,
// answers leave on fd 3; stdout is not read (libraries that print cannot corrupt the channel).
// The child exits when its stdin closes, so it never outlives the service.

/** A task answers once (a promise) or once per pull (an async iterable). */
export type SandboxHandler = (input: unknown) => Promise<unknown> | AsyncIterable<unknown>;

const ALLOCATION = /allocation failed|out of memory|Cannot allocate|Invalid typed array length|Array buffer/i;

export function serveSandbox(handlers: Record<string, SandboxHandler>): void {
  console.log = () => {};
  console.warn = () => {};
  const out = new Socket({ fd: 3, readable: false, writable: true });
  const send = (message: FromChild) => {
    for (const part of encodeFrame(message)) out.write(part);
  };
  const peakRssKb = () => process.resourceUsage().maxRSS;
  const reader = new FrameReader(Number.MAX_SAFE_INTEGER);
  let current: AsyncIterator<unknown> | undefined;
  let queue = Promise.resolve();

  const fail = (error: unknown) => {
    current = undefined;
    const err = error instanceof Error ? error : new Error(String(error));
    const code = (err as { code?: unknown }).code;
    send({
      t: 'error',
      code: typeof code === 'string' ? code : undefined,
      name: err.name,
      message: err.message,
      memory: err instanceof RangeError && ALLOCATION.test(err.message),
      peakRssKb: peakRssKb(),
    });
  };

  const handle = async (message: ToChild) => {
    if (message.t === 'start') {
      if (process.env.PATH !== message.env.PATH) process.env.PATH = message.env.PATH;
      const handler = handlers[message.task];
      if (!handler) return fail(new Error(`no sandbox task named ${message.task}`));
      try {
        const answer = handler(message.input);
        // Its rejection is read at the next pull; until then it must not count as unhandled.
        if (answer instanceof Promise) answer.catch(() => {});
        current =
          Symbol.asyncIterator in Object(answer)
            ? (answer as AsyncIterable<unknown>)[Symbol.asyncIterator]()
            : once(answer as Promise<unknown>);
      } catch (error) {
        fail(error);
      }
      return;
    }
    if (!current) return; // the task already failed; its error was the answer
    try {
      const step = await current.next();
      if (step.done) {
        current = undefined;
        send({ t: 'end', peakRssKb: peakRssKb() });
      } else send({ t: 'item', value: step.value });
    } catch (error) {
      fail(error);
    }
  };

  process.stdin.on('data', (chunk: Buffer) => {
    for (const event of reader.push(chunk)) {
      if (event.kind === 'message') queue = queue.then(() => handle(event.message as ToChild));
    }
  });
  process.stdin.on('end', () => process.exit(0));
}

async function* once(answer: Promise<unknown>): AsyncGenerator<unknown> {
  yield await answer;
}
