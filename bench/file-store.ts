// The file store alone, run by hand (results go to docs/benchmarks.md):
//
//   node --import tsx bench/file-store.ts [sqlite|postgres] [MiB]
//
// Stores a file of the given size (default 20 MiB, the statement limit) in a transaction and reads
// it back, four times, on a fresh test database, while a 1 ms timer watches the event loop. Prints
// per round the store time (hash, parts, commit), the read time (parts and the hash check) and the
// longest gap between two timer callbacks, i.e. how long every other request would have waited
// (issue 31: goal <= 50 ms; decisions 458 and 459).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { DialectName } from '../src/db/database.ts';
import { readFile, storeFile } from '../src/files/store.ts';
import { createTestDatabase } from '../test/support/databases.ts';

const dialect = (process.argv[2] ?? 'sqlite') as DialectName;
const size = Number(process.argv[3] ?? 20) * 1024 * 1024;
const organizationId = '0190a000-0000-7000-8000-0000000000b1';

const database = await createTestDatabase(dialect);
const db = database.db.kysely;
const now = new Date().toISOString();
await db
  .insertInto('organizations')
  .values({ id: organizationId, name: 'Bench', time_zone: 'UTC', created_at: now, updated_at: now })
  .execute();

console.log(`${dialect}, ${size / 1024 / 1024} MiB, Node ${process.version}, ${new Date().toISOString()}`);
for (let round = 1; round <= 4; round += 1) {
  // Different bytes each round, so each store writes a new file.
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i / 4096 + round) & 0xff;
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  let longestGap = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const at = performance.now();
    longestGap = Math.max(longestGap, at - last);
    last = at;
  }, 1);
  const stored = performance.now();
  const { file } = await db
    .transaction()
    .execute((trx) =>
      storeFile(trx, { organizationId, bytes, mediaType: 'application/pdf', fileName: 'bench.pdf', now }),
    );
  const storeMs = performance.now() - stored;
  // Let the SQLite checkpoint thread run (decision 459) before the read is timed.
  await new Promise((resolve) => setTimeout(resolve, 600));
  const read = performance.now();
  const back = await readFile(db, organizationId, file.id);
  const readMs = performance.now() - read;
  clearInterval(timer);
  loop.disable();
  if (!back?.bytes.equals(bytes)) throw new Error('the file read back differs');
  console.log(
    `round ${round}: store ${storeMs.toFixed(0)} ms, read ${readMs.toFixed(0)} ms, longest event-loop gap ${longestGap.toFixed(1)} ms`,
  );
}
await database.drop();
