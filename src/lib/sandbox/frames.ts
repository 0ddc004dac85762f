import { deserialize, serialize } from 'node:v8';

// Messages between the service and a sandbox child: a 4-byte big-endian length, then the
// message in V8's serialization (Buffers, bigints and plain objects cross unchanged). The reader
// learns each frame's length before it keeps any of its bytes, so a cap refuses an oversized
// answer without buffering it.

/** The frame as its head and body (written one after the other: a 20 MiB body is not copied again). */
export function encodeFrame(message: unknown): [Buffer, Buffer] {
  const body = serialize(message);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length, 0);
  return [head, body];
}

export type FrameEvent = { kind: 'message'; message: unknown } | { kind: 'too_large'; bytes: number };

/**
 * Splits a byte stream into messages. `maxBytes` caps the bytes of all frames read since the
 * last `resetBudget()` (one answer): past it, `too_large` is reported and nothing more is kept.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private spent = 0;
  private refused = false;

  constructor(private maxBytes: number) {}

  setBudget(maxBytes: number): void {
    this.maxBytes = maxBytes;
    this.spent = 0;
    this.refused = false;
  }

  push(chunk: Buffer): FrameEvent[] {
    if (this.refused) return [];
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const events: FrameEvent[] = [];
    while (this.buffered >= 4) {
      const head = this.peek(4);
      const length = head.readUInt32BE(0);
      if (this.spent + length > this.maxBytes) {
        this.refused = true;
        this.chunks = [];
        this.buffered = 0;
        events.push({ kind: 'too_large', bytes: this.spent + length });
        return events;
      }
      if (this.buffered < 4 + length) break;
      const frame = this.take(4 + length).subarray(4);
      this.spent += length;
      events.push({ kind: 'message', message: deserialize(frame) });
    }
    return events;
  }

  private peek(bytes: number): Buffer {
    const first = this.chunks[0];
    if (first && first.length >= bytes) return first.subarray(0, bytes);
    const all = Buffer.concat(this.chunks);
    this.chunks = [all];
    return all.subarray(0, bytes);
  }

  private take(bytes: number): Buffer {
    const all = this.chunks.length === 1 && this.chunks[0] ? this.chunks[0] : Buffer.concat(this.chunks);
    const taken = all.subarray(0, bytes);
    const rest = all.subarray(bytes);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    return taken;
  }
}
