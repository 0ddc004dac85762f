import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/**
 * UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then random bits. Ids made in one process
 * sort by creation time; a 12-bit counter keeps ids made in the same millisecond ordered.
 */
export function newId(nowMs: number = Date.now()): string {
  if (nowMs <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1;
    nowMs = lastMs;
  } else {
    lastMs = nowMs;
    sequence = randomBytes(2).readUInt16BE(0) & 0x3ff;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
