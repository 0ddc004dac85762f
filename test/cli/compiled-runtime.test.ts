import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { defaultLimits } from '../../src/receipts/extraction/types.ts';
import type { WorkerMessage } from '../../src/receipts/extraction/worker.ts';
import { einvoiceFixture } from '../receipts/extraction/einvoice-fixtures.ts';
import { type ServeProcess, startServe } from '../support/processes.ts';

/**
 * Production runs the compiled bundle (scripts/build.mjs, started by bin/launch.mjs), whose heavy
 * parts load on first use: the API reference, MCP and the receipt extraction worker must work
 * from it exactly as from the sources the rest of the suite runs.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CURRENT = path.join(ROOT, 'dist', 'current');

describe('the compiled runtime', () => {
  let serve: ServeProcess;
  let apiKey = '';
  const dataDir = mkdtempSync(path.join(tmpdir(), 'accounting-compiled-'));
  before(async () => {
    serve = await startServe({ ACCOUNTING_DATA_DIR: dataDir });
    apiKey = /API key:\s+(\S+)/.exec(serve.banner)?.[1] ?? '';
  });
  after(async () => {
    await serve.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serve runs from dist/current, built from the sources', () => {
    assert.ok(existsSync(path.join(CURRENT, 'accounting.mjs')));
    assert.ok(apiKey.startsWith('ak_'), serve.banner);
  });

  it('loads the API reference on the first request to /docs', async () => {
    const page = await fetch(`${serve.baseUrl}/docs`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /src="\/docs\/swagger-ui-bundle\.js"/);
    const script = await fetch(`${serve.baseUrl}/docs/swagger-ui-bundle.js`);
    assert.equal(script.status, 200);
    assert.ok((await script.arrayBuffer()).byteLength > 100_000);
  });

  it('loads MCP on the first request to /mcp', async () => {
    const res = await fetch(`${serve.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    assert.match(await res.text(), /"serverInfo"/);
  });

  it('the compiled extraction worker reads an e-invoice', async () => {
    const worker = new Worker(new URL(`file://${path.join(CURRENT, 'extraction-worker.mjs')}`));
    try {
      const result = await new Promise<unknown>((resolve, reject) => {
        worker.on('message', (message: WorkerMessage) => {
          if (message.type === 'result') resolve(message.result);
        });
        worker.on('error', reject);
        worker.postMessage({
          input: {
            bytes: einvoiceFixture('cii-invoice.xml'),
            fileName: 'invoice.xml',
            mediaType: 'application/xml',
          },
          limits: defaultLimits,
          deadline: Date.now() + 20_000,
        });
      });
      const text = JSON.stringify(result, (_key, value) =>
        typeof value === 'bigint' ? String(value) : value,
      );
      assert.equal((result as { status: string }).status, 'ready', text.slice(0, 500));
      assert.match(text, /"documentNumber":\{"value":"LB-2024-0117"/);
      assert.match(text, /"totalMinor":\{"value":"112500"/);
    } finally {
      await worker.terminate();
    }
  });
});
