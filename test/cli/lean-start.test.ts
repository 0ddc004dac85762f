import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startServe } from '../support/processes.ts';

const TRACE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../support/module-trace.mjs');

/**
 * Packages a `serve` process on SQLite must not load before it is asked for what they do
 * (decision 269; issue 16, idle RSS <= 120 MB): a static import of one of them is the usual way
 * a few MB come back unnoticed.
 */
const LOADED_ON_FIRST_USE = [
  'pg', // PostgreSQL only
  'pdf-lib', // signed agreements
  'pdfkit', // invoice PDFs
  'mailparser', // inbound mail
  'smtp-server', // inbound mail listener (off unless configured)
  'nodemailer', // outgoing mail (SMTP configured)
  'undici', // webhook deliveries
  'jose', // OAuth tokens and OIDC sign-in
  'csv-parse', // statement imports
  'saxes', // statement imports (CAMT.053)
  'ioredis', // REDIS_URL only
  '@modelcontextprotocol/server', // /mcp
  'swagger-ui-dist', // /docs
];

describe('serve starts lean (compiled runtime, SQLite)', () => {
  it('loads none of the packages that wait for first use', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accounting-lean-'));
    const trace = path.join(dir, 'modules.txt');
    const serve = await startServe({
      ACCOUNTING_DATA_DIR: dir,
      NODE_OPTIONS: `--import ${TRACE}`,
      MODULE_TRACE_FILE: trace,
    });
    try {
      const health = await fetch(`${serve.baseUrl}/healthz`);
      assert.equal(health.status, 200);
    } finally {
      await serve.stop();
    }
    try {
      const loaded = new Set(
        readFileSync(trace, 'utf8')
          .split('\n')
          .flatMap((line) => {
            const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line);
            return match?.[1] ? [match[1]] : [];
          }),
      );
      assert.ok(loaded.has('fastify') && loaded.has('better-sqlite3'), 'the trace sees packages');
      assert.deepEqual(
        LOADED_ON_FIRST_USE.filter((name) => loaded.has(name)),
        [],
        'loaded at start',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
