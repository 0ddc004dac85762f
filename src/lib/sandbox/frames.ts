import { Deserializer, Serializer } from 'node:v8';

// Messages between the service and a sandbox child: a 4-byte big-endian length of the whole
// frame, a 4-byte length of the message, the message in V8's serialization (bigints and plain
// objects cross unchanged), then the bytes of its large Buffers. The reader learns each frame's
// length before it keeps any of its bytes, so a cap refuses an oversized answer without buffering
// it.
//
// Large Buffers travel beside the serialized message, not inside it: serialising copied a 20 MiB
// statement into a second 20 MiB buffer on the service's event loop before it was written to the
// child (bench/hostile-files.ts, the processing column). Now the file's own buffer is written.

/** A byte array at least this long is sent beside the message; smaller ones inside it. */
const BESIDE_BYTES = 64 * 1024;
/** Tags of a byte array in the message: its bytes inline, or the index of one sent beside. */
const INLINE = 0;
const BESIDE = 1;

/** Every byte array (Buffer, Uint8Array) crosses as a Buffer; no other typed array is sent. */
class FrameSerializer extends Serializer {
  readonly beside: Buffer[] = [];
  constructor() {
    super();
    // Node's documented hooks for host objects (not in @types/node): byte arrays come to
    // _writeHostObject instead of being written inline.
    (
      this as unknown as { _setTreatArrayBufferViewsAsHostObjects(flag: boolean): void }
    )._setTreatArrayBufferViewsAsHostObjects(true);
  }
  _writeHostObject(object: object): void {
    if (!(object instanceof Uint8Array)) throw new TypeError('only byte arrays cross the sandbox boundary');
    const bytes = Buffer.from(object.buffer, object.byteOffset, object.byteLength);
    if (bytes.length >= BESIDE_BYTES) {
      this.writeUint32(BESIDE);
      this.writeUint32(this.beside.length);
      this.beside.push(bytes);
    } else {
      this.writeUint32(INLINE);
      this.writeUint32(bytes.length);
      this.writeRawBytes(bytes);
    }
  }
}

class FrameDeserializer extends Deserializer {
  constructor(
    message: Buffer,
    private readonly beside: readonly Buffer[],
  ) {
    super(message);
  }
  _readHostObject(): Buffer {
    const tag = this.readUint32();
    const value = this.readUint32();
    if (tag === BESIDE) {
      const bytes = this.beside[value];
      if (!bytes) throw new Error('a frame names bytes it does not carry');
      return bytes;
    }
    // Copied out of the frame, so the frame's memory is not held by a small value.
    return Buffer.from(this.readRawBytes(value) as Buffer);
  }
}

/**
 * The frame as buffers to write one after the other: its head, the serialized message, and the
 * large byte arrays themselves (a 20 MiB file is written from its own memory, never copied).
 */
export function encodeFrame(message: unknown): Buffer[] {
  const serializer = new FrameSerializer();
  serializer.writeHeader();
  serializer.writeValue(message);
  const body = serializer.releaseBuffer();
  const lengths = Buffer.alloc(4 * (serializer.beside.length + 1));
  lengths.writeUInt32BE(serializer.beside.length, 0);
  for (const [index, bytes] of serializer.beside.entries())
    lengths.writeUInt32BE(bytes.length, 4 * (index + 1));
  const total = 4 + body.length + lengths.length + serializer.beside.reduce((sum, b) => sum + b.length, 0);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(total, 0);
  head.writeUInt32BE(body.length, 4);
  return [head, body, lengths, ...serializer.beside];
}

/** The message of a frame (without its 4-byte length): the message, then the bytes beside it. */
function decodeFrame(frame: Buffer): unknown {
  const bodyLength = frame.readUInt32BE(0);
  const body = frame.subarray(4, 4 + bodyLength);
  let at = 4 + bodyLength;
  const count = frame.readUInt32BE(at);
  const lengths: number[] = [];
  for (let i = 1; i <= count; i += 1) lengths.push(frame.readUInt32BE(at + 4 * i));
  at += 4 * (count + 1);
  const beside = lengths.map((length) => {
    const bytes = frame.subarray(at, at + length);
    at += length;
    return bytes;
  });
  const deserializer = new FrameDeserializer(body, beside);
  deserializer.readHeader();
  return deserializer.readValue();
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
      events.push({ kind: 'message', message: decodeFrame(frame) });
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
