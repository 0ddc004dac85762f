// Child of bench/statement-import.ts: a worker process that runs the queued statement imports of
// the database its environment names (DATABASE_URL or ACCOUNTING_DATA_DIR), then prints one JSON
// line: the seconds from the first claim to the queue being empty, its resident memory when idle
// (services built, before the job) and its peak resident memory (VmHWM, kept by the kernel, so
// no sample can be missed while the job keeps the event loop busy).
import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { runStatementImports } from '../src/books/import-job.ts';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/services.ts';

function statusMiB(field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 1024);
}

const services = await createServices(loadConfig({ ...process.env, LOG_LEVEL: 'silent' }), {
  logger: pino({ level: 'silent' }),
});
const idleRssMiB = statusMiB('VmRSS');
const startupPeakMiB = statusMiB('VmHWM');
const started = performance.now();
const cpuStart = process.cpuUsage();
let jobs = 0;
while ((await runStatementImports(services)) > 0) jobs += 1;
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuStart);
// CPU time of the worker (user + system): what the job itself costs, less swayed by others' load.
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
console.log(
  JSON.stringify({ jobs, seconds, cpuSeconds, idleRssMiB, startupPeakMiB, peakRssMiB: statusMiB('VmHWM') }),
);
await services.db.close();
