import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeFrame, FrameReader } from '../../../src/lib/sandbox/frames.ts';

/** Frames between the service and a sandbox child: large byte arrays travel beside the message. */
describe('sandbox frames', () => {
  const roundTrip = (message: unknown, chunk = 7) => {
    const parts = encodeFrame(message);
    const stream = Buffer.concat(parts);
    const reader = new FrameReader(Number.MAX_SAFE_INTEGER);
    const events = [];
    for (let i = 0; i < stream.length; i += chunk) events.push(...reader.push(stream.subarray(i, i + chunk)));
    return { parts, events };
  };

  it('writes a large file from its own memory and reads every value back', () => {
    const file = Buffer.alloc(200 * 1024);
    for (let i = 0; i < file.length; i += 1) file[i] = (i * 7) & 0xff;
    const message = {
      t: 'task',
      input: { bytes: file, small: Buffer.from('inline'), plain: new Uint8Array([1, 2, 3]), n: 12n, s: 'é' },
    };
    const { parts, events } = roundTrip(message, 4096);
    // The 200 KiB file is one of the parts written, the same memory: no copy of it was made.
    assert.ok(parts.some((part) => part.buffer === file.buffer && part.byteOffset === file.byteOffset));
    assert.ok(parts.every((part) => part.buffer === file.buffer || part.length < 1024));
    assert.equal(events.length, 1);
    const event = events[0];
    assert.equal(event?.kind, 'message');
    const back = (event as { message: typeof message }).message;
    assert.ok(back.input.bytes.equals(file));
    assert.deepEqual(back.input.small, Buffer.from('inline'));
    assert.ok(Buffer.isBuffer(back.input.plain));
    assert.deepEqual([...back.input.plain], [1, 2, 3]);
    assert.equal(back.input.n, 12n);
    assert.equal(back.input.s, 'é');
  });

  it('reads several frames from one stream, split anywhere, and refuses one over the cap unread', () => {
    const big = Buffer.alloc(100 * 1024, 1);
    const stream = Buffer.concat([...encodeFrame({ a: big }), ...encodeFrame({ b: 2 })]);
    for (const chunk of [1, 3, 65536, stream.length]) {
      const reader = new FrameReader(Number.MAX_SAFE_INTEGER);
      const events = [];
      for (let i = 0; i < stream.length; i += chunk)
        events.push(...reader.push(stream.subarray(i, i + chunk)));
      assert.equal(events.length, 2, `chunk ${chunk}`);
      assert.ok((events[0] as { message: { a: Buffer } }).message.a.equals(big));
      assert.deepEqual((events[1] as { message: unknown }).message, { b: 2 });
    }
    const capped = new FrameReader(1000);
    assert.deepEqual(
      capped.push(stream.subarray(0, 4)).map((e) => e.kind),
      ['too_large'],
    );
  });

  it('sends no other typed array: it is refused when the frame is made', () => {
    assert.throws(() => encodeFrame({ f: new Float64Array(2) }), /only byte arrays/);
  });
});
