// The reference rates job against a real HTTP server on loopback (the webhook policy's localhost
// exception, which the test harness opens on any port), and `accounting rates load|status`.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { refreshReferenceRates } from '../../../src/receipts/rates/refresh.ts';
import { startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { runCli } from '../../support/processes.ts';
import { BILLION_LAUGHS, ecbFile, NINETY_DAYS } from './ecb-samples.ts';

/** Serves whatever `answer` holds now, counting requests. */
async function ratesServer(): Promise<{
  server: Server;
  url: string;
  requests: () => number;
  answer: { status: number; body: Buffer };
}> {
  const answer = { status: 200, body: NINETY_DAYS };
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    assert.equal(req.method, 'GET');
    res.writeHead(answer.status, { 'content-type': 'text/xml' });
    res.end(answer.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://localhost:${port}/stats/eurofxref/eurofxref-hist-90d.xml`,
    requests: () => requests,
    answer,
  };
}

async function storedRows(app: TestApp) {
  return app.services.db.kysely
    .selectFrom('reference_rates')
    .select(['rate_date', 'currency', 'rate', 'source'])
    .orderBy('rate_date')
    .orderBy('currency')
    .execute();
}

const HOUR = 3_600_000;

for (const dialect of DIALECTS) {
  describe(`reference rates job (${dialect})`, () => {
    let app: TestApp;
    let source: Awaited<ReturnType<typeof ratesServer>>;
    const dir = mkdtempSync(path.join(tmpdir(), 'accounting-rates-'));
    before(async () => {
      source = await ratesServer();
      app = await startTestApp(dialect, {
        env: { ACCOUNTING_REFERENCE_RATES_URL: source.url, ACCOUNTING_REFERENCE_RATES_INTERVAL: '6h' },
      });
    });
    after(async () => {
      await app?.close();
      source?.server.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('fetches the configured file once when due, from one process at a time, and again after the interval', async () => {
      // Two runs at once (two workers): one fetch, the other finds the row held or not due.
      const [a, b] = await Promise.all([
        refreshReferenceRates(app.services),
        refreshReferenceRates(app.services),
      ]);
      assert.deepEqual([a.outcome, b.outcome].sort(), ['loaded', 'not_due']);
      assert.equal(source.requests(), 1);
      const rows = await storedRows(app);
      assert.equal(rows.length, 12);
      const usd = rows.find((r) => r.rate_date === '2026-11-27' && r.currency === 'USD');
      assert.deepEqual(usd && { rate: usd.rate, source: usd.source }, {
        rate: '1.0512',
        source: new URL(source.url).host,
      });
      // Not due yet: no request.
      app.clock.advance(5 * HOUR);
      assert.equal((await refreshReferenceRates(app.services)).outcome, 'not_due');
      assert.equal(source.requests(), 1);
      app.clock.advance(1 * HOUR + 1000);
      source.answer.body = ecbFile([{ date: '2026-11-30', rates: { USD: '1.0555' } }]);
      assert.equal((await refreshReferenceRates(app.services)).outcome, 'loaded');
      assert.equal(source.requests(), 2);
      assert.equal((await storedRows(app)).length, 13, 'a new day adds to the table, nothing is dropped');
    });

    it('a hostile or malformed file, or an HTTP error, fails the run with a stable code and changes nothing', async () => {
      const before = await storedRows(app);
      const cases: Array<[number, Buffer, string]> = [
        [200, BILLION_LAUGHS, 'rates_unsafe_xml'],
        [200, Buffer.from(NINETY_DAYS.toString().slice(0, 500)), 'rates_malformed_file'],
        [200, ecbFile([{ date: '2026-12-01', rates: { USD: '1.07', GBP: 'NaN' } }]), 'rates_invalid_value'],
        [503, Buffer.from('maintenance'), 'rates_fetch_http_status'],
      ];
      for (const [status, body, code] of cases) {
        app.clock.advance(7 * HOUR);
        source.answer.status = status;
        source.answer.body = body;
        const run = await refreshReferenceRates(app.services);
        assert.equal(run.outcome, 'failed');
        assert.equal(run.outcome === 'failed' && run.code, code);
        assert.deepEqual(await storedRows(app), before, code);
        const state = await app.services.db.kysely
          .selectFrom('reference_rate_source')
          .select(['last_error_code', 'lease_token'])
          .executeTakeFirstOrThrow();
        assert.deepEqual(state, { last_error_code: code, lease_token: null });
        // A failure is tried again after an hour, not at once.
        assert.equal((await refreshReferenceRates(app.services)).outcome, 'not_due');
      }
      source.answer.status = 200;
    });

    it('accounting rates load stores a local file; a refused file changes nothing; rates status reports', async () => {
      const env = { ...app.database.env, LOG_LEVEL: 'silent' };
      const good = path.join(dir, 'eurofxref-hist.xml');
      writeFileSync(good, ecbFile([{ date: '2025-06-02', rates: { USD: '1.1444', CHF: '0.9390' } }]));
      const loaded = await runCli(['rates', 'load', '--file', good, '--json'], env);
      assert.equal(loaded.code, 0, loaded.stderr);
      assert.deepEqual(JSON.parse(loaded.stdout), {
        days: 1,
        rows: 2,
        newestDate: '2025-06-02',
        oldestDate: '2025-06-02',
      });
      const chf = (await storedRows(app)).find((r) => r.rate_date === '2025-06-02' && r.currency === 'CHF');
      assert.deepEqual(chf && { rate: chf.rate, source: chf.source }, {
        rate: '0.9390',
        source: 'file eurofxref-hist.xml',
      });
      const before = await storedRows(app);
      const bad = path.join(dir, 'bad.xml');
      writeFileSync(bad, BILLION_LAUGHS);
      const refused = await runCli(['rates', 'load', '--file', bad], env);
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /rates_unsafe_xml/);
      assert.deepEqual(await storedRows(app), before);
      const missing = await runCli(['rates', 'load', '--file', path.join(dir, 'nope.xml')], env);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /no such file/);
      const status = await runCli(['rates', 'status', '--json'], {
        ...env,
        ACCOUNTING_REFERENCE_RATES_URL: source.url,
      });
      assert.equal(status.code, 0, status.stderr);
      const parsed = JSON.parse(status.stdout) as Record<string, unknown>;
      assert.equal(parsed.rows, before.length);
      assert.equal(parsed.oldestDate, '2025-06-02');
      assert.equal(parsed.source, `${new URL(source.url).host}/stats/eurofxref/eurofxref-hist-90d.xml`);
      assert.equal(parsed.lastErrorCode, 'rates_fetch_http_status');
    });
  });
}

describe('reference rates job, not configured', () => {
  it('is off: no state row, no request', async () => {
    const app = await startTestApp(DIALECTS[0] ?? 'sqlite');
    try {
      assert.deepEqual(await refreshReferenceRates(app.services), { outcome: 'off' });
      const rows = await app.services.db.kysely.selectFrom('reference_rate_source').selectAll().execute();
      assert.deepEqual(rows, []);
    } finally {
      await app.close();
    }
  });
});
