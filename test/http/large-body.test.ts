import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GLOBAL_BODY_LIMIT } from '../../src/http/app.ts';
import { runCli, type ServeProcess, startServe } from '../support/processes.ts';

/**
 * A client that sends a body far over every limit must read the 413, not a broken pipe: the
 * server answers early, so it has to keep reading (and discarding) what is still on its way.
 * A plain node:http client writes the whole body, as curl and most SDKs do.
 */

// Over every limit, /mcp included: its limit is the largest an operation takes (statement imports).
const SIZE = Math.max(20 * 1024 * 1024, GLOBAL_BODY_LIMIT + 1024 * 1024);

function postBig(url: URL, headers: Record<string, string> = {}, chunked = false): Promise<string> {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(chunked ? {} : { 'content-length': String(SIZE) }),
          ...headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve(`${res.statusCode} ${body}`));
        res.on('error', (error: NodeJS.ErrnoException) =>
          resolve(`response error ${error.code ?? error.message}`),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve(`request error ${error.code ?? error.message}`),
    );
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const write = (): void => {
      while (sent < SIZE) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

describe('a body of 20 MB or more, over every limit', () => {
  // A real `serve` process: the resets showed up there, under the timing of a separate process.
  let app: ServeProcess;
  let apiKey = '';
  const dataDir = mkdtempSync(path.join(tmpdir(), 'accounting-big-'));
  before(async () => {
    const init = await runCli(['init', '--json'], { ACCOUNTING_DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    assert.equal(init.code, 0, init.stderr);
    apiKey = String(
      (JSON.parse(init.stdout.trim().split('\n').at(-1) ?? '{}') as { apiKey?: string }).apiKey,
    );
    app = await startServe({ ACCOUNTING_DATA_DIR: dataDir });
  });
  after(async () => {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gets a readable answer every time: 413 for a key holder, 401 for a stranger (issue 31 part 2), in parallel, with or without Content-Length, keep-alive or close', async () => {
    const answers: string[] = [];
    for (const where of ['/api/v1/accounting/contractors.create', '/mcp']) {
      for (const chunked of [false, true]) {
        for (const connection of ['keep-alive', 'close']) {
          const who = ['key', 'none', 'key', 'wrong'] as const;
          const batch = await Promise.all(
            who.map((caller) =>
              postBig(
                new URL(`${app.baseUrl}${where}`),
                {
                  connection,
                  ...(caller === 'key' ? { authorization: `Bearer ${apiKey}` } : {}),
                  ...(caller === 'wrong' ? { authorization: 'Bearer ak_nope' } : {}),
                },
                chunked,
              ),
            ),
          );
          answers.push(
            ...batch.map(
              (answer, i) => `${who[i]} ${where} ${chunked} ${connection}: ${answer.slice(0, 200)}`,
            ),
          );
        }
      }
    }
    const broken = answers.filter((answer) =>
      answer.startsWith('key ')
        ? !/: 413 \{"error":\{"limit_bytes":\d+,"code":"payload_too_large"/.test(answer)
        : !/: 401 \{"error":\{"code":"(missing|invalid)_credential"/.test(answer),
    );
    assert.deepEqual(broken, []);
    assert.equal(answers.length, 32);
  });

  it('is answered by fetch (undici) with the 413 too', async () => {
    const res = await fetch(`${app.baseUrl}/api/v1/accounting/contractors.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: Buffer.alloc(SIZE, 0x20),
    });
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'payload_too_large');
  });
});
