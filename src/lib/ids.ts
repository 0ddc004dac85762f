import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/**
 * Random bytes drawn from the CSPRNG 4 KiB at a time: ids are made several times per request
 * (request id, record, audit row, event, claim token), and one `randomBytes` call per id cost more
 * than the rest of the id together. Each byte is used once.
 */
const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let poolOffset = POOL_SIZE;

function randomSlice(size: number): Buffer {
  if (poolOffset + size > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const slice = Buffer.from(pool.subarray(poolOffset, poolOffset + size));
  poolOffset += size;
  return slice;
}

/**
 * UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then random bits. Ids made in one process
 * sort by creation time; a 12-bit counter keeps ids made in the same millisecond ordered.
 */
export function newId(nowMs: number = Date.now()): string {
  const bytes = randomSlice(16);
  if (nowMs <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1;
    nowMs = lastMs;
  } else {
    lastMs = nowMs;
    // A random start in the lower 10 bits, from bytes 6-7 (overwritten just below).
    sequence = bytes.readUInt16BE(6) & 0x3ff;
  }
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
