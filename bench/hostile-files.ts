// Hostile files through the real service, run by hand (results go to docs/benchmarks.md):
//
//   node --import tsx bench/hostile-files.ts [sqlite|postgres]
//
// The service (HTTP server, database, job runner) runs in this process, as in the tests; each
// hostile file is uploaded over HTTP by curl in a child process (statements:
// transactions.imports.create; receipts:
// receipts.upload), then its job runs here while a probe asks /healthz every 10 ms. Printed per
// file: the outcome (state and code), the longest event-loop stall during the upload and while the job ran
// (perf_hooks monitorEventLoopDelay), the slowest /healthz answer, this process's RSS growth
// (upload included / processing only), and the peak RSS of the sandbox children (sampled from
// /proc every 10 ms). Each file at about 1 MB and at its door's size limit (statements 20 MiB,
// receipts 10 MiB). Goal (issue 31): stall <= 50 ms and service RSS growth <= 50 MB per file.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { DialectName } from '../src/db/database.ts';
import { booksJobs } from '../src/jobs/books-jobs.ts';
import { receiptsJobs } from '../src/jobs/receipts-jobs.ts';
import { createCaller, startTestApp } from '../test/support/app.ts';
import {
  camtLongTextEntry,
  camtWideEntry,
  ofxDeepAggregates,
  ofxUnclosedCdata,
  pdfObjectStreamBombStreamed,
} from '../test/support/hostile-files.ts';

const dialect = (process.argv[2] ?? 'sqlite') as DialectName;
const MiB = 1024 * 1024;
const STATEMENT_LIMIT = 20 * MiB - 4096;
const RECEIPT_LIMIT = 10 * MiB - 4096;

const ublNotes = (bytes: number) => {
  const head =
    '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">';
  const unit = '<cbc:Note>x</cbc:Note>';
  return Buffer.from(`${head}${unit.repeat(Math.floor((bytes - head.length - 10) / unit.length))}</Invoice>`);
};

interface HostileFile {
  name: string;
  door: 'statement' | 'receipt';
  mediaType: string;
  bytes: Buffer;
}

process.stderr.write('generating files...\n');
const files: HostileFile[] = [];
for (const [label, size] of [
  ['1 MB', MiB],
  ['limit', STATEMENT_LIMIT],
] as const) {
  files.push({
    name: `OFX unclosed CDATA, ${label}`,
    door: 'statement',
    mediaType: 'application/x-ofx',
    bytes: ofxUnclosedCdata(size),
  });
  files.push({
    name: `OFX deep aggregates, ${label}`,
    door: 'statement',
    mediaType: 'application/x-ofx',
    bytes: ofxDeepAggregates(size),
  });
  files.push({
    name: `CAMT wide entry, ${label}`,
    door: 'statement',
    mediaType: 'application/xml',
    bytes: camtWideEntry(size),
  });
  files.push({
    name: `CAMT long text, ${label}`,
    door: 'statement',
    mediaType: 'application/xml',
    bytes: camtLongTextEntry(size),
  });
}
const bomb1 = await pdfObjectStreamBombStreamed(1024 ** 3);
files.push({
  name: 'PDF object streams to 1 GiB, 1 MB',
  door: 'receipt',
  mediaType: 'application/pdf',
  bytes: bomb1,
});
files.push({
  name: 'PDF object streams to 9 GiB, limit',
  door: 'receipt',
  mediaType: 'application/pdf',
  bytes: await pdfObjectStreamBombStreamed(1024 ** 3, Math.floor(RECEIPT_LIMIT / bomb1.length)),
});
files.push({
  name: 'UBL of empty notes, 1 MB',
  door: 'receipt',
  mediaType: 'application/xml',
  bytes: ublNotes(MiB),
});
files.push({
  name: 'UBL of empty notes, limit',
  door: 'receipt',
  mediaType: 'application/xml',
  bytes: ublNotes(RECEIPT_LIMIT),
});

const app = await startTestApp(dialect);
const caller = await createCaller(app);

async function post(operation: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`${app.baseUrl}/api/v1/accounting/${operation}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${caller.token}`,
      'content-type': 'application/json',
      'idempotency-key': `bench-${Math.random()}`,
    },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: Record<string, unknown> };
  if (res.status !== 200 || !json.data)
    throw new Error(`${operation}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

const account = await post('accounts.create', { name: 'Bench', kind: 'checking', currency: 'EUR' });

/** RSS of this process's children (the sandbox children), in bytes. */
function childrenRss(): number {
  let total = 0;
  let pids: string[] = [];
  try {
    pids = readdirSync(`/proc/${process.pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${process.pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean),
    );
  } catch {
    return 0;
  }
  for (const pid of pids) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      total += Number(match?.[1] ?? 0) * 1024;
    } catch {
      // gone
    }
  }
  return total;
}

const mb = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;
const rows: string[] = [];

// Warm both doors and both sandboxes: their first child's start, and each operation's first call in
// the process (its modules loaded, its validator compiled), are not what is measured.
await post('transactions.imports.create', {
  accountId: account.id,
  fileName: 'warm.csv',
  mediaType: 'text/csv',
  contentBase64: Buffer.from('Date,Description,Amount\n2026-01-01,A,-1.00\n').toString('base64'),
});
await app.runJobs(booksJobs);
await post('receipts.upload', {
  fileName: 'warm.xml',
  mediaType: 'application/xml',
  contentBase64: ublNotes(2048).toString('base64'),
});
await app.runJobs(receiptsJobs);

/**
 * Uploads from a separate process (curl), so the RSS and event-loop figures are the service's
 * alone: an in-process client would add its own copies of the 27 MiB JSON body to them.
 */
function curlPost(operation: string, bodyPath: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      'curl',
      [
        '-sS',
        '-X',
        'POST',
        '-H',
        `authorization: Bearer ${caller.token}`,
        '-H',
        'content-type: application/json',
        '-H',
        `idempotency-key: bench-${Math.random()}`,
        '--data-binary',
        `@${bodyPath}`,
        `${app.baseUrl}/api/v1/accounting/${operation}`,
      ],
      { maxBuffer: 16 * MiB },
      (error, stdout) => {
        if (error) return reject(error);
        const json = JSON.parse(stdout) as { data?: Record<string, unknown> };
        if (!json.data) return reject(new Error(`${operation}: ${stdout.slice(0, 500)}`));
        resolve(json.data);
      },
    );
  });
}

const scratch = mkdtempSync(path.join(tmpdir(), 'hostile-bench-'));
const bodyPath = path.join(scratch, 'body.json');

for (const file of files) {
  const base64 = file.bytes.toString('base64');
  const operation = file.door === 'statement' ? 'transactions.imports.create' : 'receipts.upload';
  writeFileSync(
    bodyPath,
    JSON.stringify(
      file.door === 'statement'
        ? {
            accountId: account.id,
            fileName: file.name.startsWith('OFX') ? 'hostile.ofx' : 'hostile.xml',
            mediaType: file.mediaType,
            contentBase64: base64,
          }
        : {
            fileName: file.mediaType === 'application/pdf' ? 'hostile.pdf' : 'hostile.xml',
            mediaType: file.mediaType,
            contentBase64: base64,
          },
    ),
  );
  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  let sandboxPeak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
    sandboxPeak = Math.max(sandboxPeak, childrenRss());
  }, 10);
  const uploadLoop = monitorEventLoopDelay({ resolution: 5 });
  uploadLoop.enable();
  const created = await curlPost(operation, bodyPath);
  uploadLoop.disable();
  const afterUpload = process.memoryUsage().rss;
  const uploadPeak = peak;
  peak = afterUpload;

  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let probing = true;
  let slowest = 0;
  let probes = 0;
  const probe = (async () => {
    while (probing) {
      const started = performance.now();
      const res = await fetch(`${app.baseUrl}/healthz`);
      await res.arrayBuffer();
      slowest = Math.max(slowest, performance.now() - started);
      probes++;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const started = performance.now();
  await app.runJobs(file.door === 'statement' ? booksJobs : receiptsJobs);
  const elapsed = performance.now() - started;
  probing = false;
  await probe;
  loop.disable();
  clearInterval(sampler);

  const outcome =
    file.door === 'statement'
      ? await post('transactions.imports.get', { id: (created as { job: { id: string } }).job.id })
      : await post('inbox.get', { id: (created as { item: { id: string } }).item.id });
  const code =
    file.door === 'statement'
      ? (outcome.error as { code?: string } | null)?.code
      : (outcome.failure as { code?: string } | null)?.code;
  const row = [
    file.name,
    `${(file.bytes.length / MiB).toFixed(1)} MiB`,
    `${outcome.state} ${code ?? ''}`.trim(),
    `${(elapsed / 1000).toFixed(1)} s`,
    `${(uploadLoop.max / 1e6).toFixed(0)} ms / ${(loop.max / 1e6).toFixed(0)} ms`,
    `${slowest.toFixed(0)} ms (${probes})`,
    `${mb(Math.max(uploadPeak, afterUpload) - baseline)} / ${mb(peak - afterUpload)}`,
    mb(sandboxPeak),
  ];
  rows.push(`| ${row.join(' | ')} |`);
  process.stderr.write(`${rows.at(-1)}\n`);
}

console.log(`\n${dialect}, Node ${process.version}, ${new Date().toISOString()}\n`);
console.log(
  '| file | size | outcome | job time | longest stall: upload / job | slowest /healthz (probes) | service RSS growth: upload / processing | sandbox peak RSS |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) console.log(row);
rmSync(scratch, { recursive: true, force: true });
await app.close();
process.exit(0);
