import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Sandbox } from '../../src/lib/sandbox/index.ts';
import type { ExtractionJob } from '../../src/receipts/extraction/sandbox-child.ts';
import { defaultLimits } from '../../src/receipts/extraction/types.ts';
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

  /** A sandbox whose children run from the compiled bundle, as the compiled service starts them. */
  const compiledSandbox = (bundle: string) =>
    new Sandbox(
      {
        compiled: bundle,
        source: new URL('file:///unused.ts'),
        from: `file://${path.join(CURRENT, 'accounting.mjs')}`,
      },
      1,
    );
  const limits = { memoryMb: 512, heapMb: 256, timeoutMs: 20_000, maxOutputBytes: 1024 * 1024 };

  it('the compiled extraction sandbox child reads an e-invoice', async () => {
    const job: ExtractionJob = {
      input: {
        bytes: einvoiceFixture('cii-invoice.xml'),
        fileName: 'invoice.xml',
        mediaType: 'application/xml',
      },
      limits: defaultLimits,
      deadline: Date.now() + 20_000,
    };
    const result = await compiledSandbox('extraction-sandbox.mjs').run<{ status: string }>(
      'extract',
      job,
      limits,
    );
    const text = JSON.stringify(result, (_key, value) => (typeof value === 'bigint' ? String(value) : value));
    assert.equal(result.status, 'ready', text.slice(0, 500));
    assert.match(text, /"documentNumber":\{"value":"LB-2024-0117"/);
    assert.match(text, /"totalMinor":\{"value":"112500"/);
  });

  it('the compiled agreement sandbox child renders a signed PDF', async () => {
    const pdf = await compiledSandbox('agreement-sandbox.mjs').run<Uint8Array>(
      'render',
      {
        document: Buffer.from('# Agreement\n\nText.\n'),
        facts: {
          agreementId: 'agr_1',
          title: 'Agreement',
          fileName: 'draft.md',
          mediaType: 'text/markdown',
          documentSha256: '0'.repeat(64),
          signedName: 'Ada',
          signedAt: '2026-11-28T00:00:00Z',
          clientAddress: '127.0.0.1',
          consentText: 'I agree.',
        },
      },
      limits,
    );
    assert.equal(Buffer.from(pdf).subarray(0, 5).toString('latin1'), '%PDF-');
  });

  it('the compiled statement sandbox child reads a statement', async () => {
    const source = {
      bytes: Buffer.from('Date,Description,Amount\n2026-01-02,Coffee,-3.50\n'),
      fileName: 's.csv',
      mediaType: 'text/csv',
      accountCurrency: 'EUR',
      accountKind: 'checking',
    };
    const batches: { items: { kind: string; line?: { amountMinor: bigint } }[] }[] = [];
    for await (const batch of compiledSandbox('statement-sandbox.mjs').stream<(typeof batches)[number]>(
      'parse',
      source,
      limits,
    ))
      batches.push(batch);
    const items = batches.flatMap((b) => b.items);
    assert.equal(items.length, 1);
    assert.equal(items[0]?.line?.amountMinor, -350n);
  });
});
