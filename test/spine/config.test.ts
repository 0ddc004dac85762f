import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, localhostExceptionNotice } from '../../src/config.ts';

describe('configuration checks at start', () => {
  it('derives the public URL from HOST and PORT, bracketing IPv6 hosts', () => {
    assert.equal(loadConfig({}).publicUrl, 'http://127.0.0.1:8080');
    assert.equal(loadConfig({ HOST: '0.0.0.0', PORT: '9000' }).publicUrl, 'http://localhost:9000');
    assert.equal(loadConfig({ HOST: '::1' }).publicUrl, 'http://[::1]:8080');
  });

  it('keeps a valid ACCOUNTING_PUBLIC_URL without its trailing slashes', () => {
    const config = loadConfig({ ACCOUNTING_PUBLIC_URL: 'https://books.example.com/acct//' });
    assert.equal(config.publicUrl, 'https://books.example.com/acct');
  });

  it('refuses a public URL that links in mail could not use', () => {
    for (const value of [
      'books.example.com',
      'ftp://books.example.com',
      'javascript:alert(1)',
      'https://user:pw@books.example.com',
      'https://books.example.com/?a=1',
    ]) {
      assert.throws(() => loadConfig({ ACCOUNTING_PUBLIC_URL: value }), ConfigError, value);
    }
  });

  it('reference rates: off unless a URL is set; the URL and interval are checked at start', () => {
    assert.deepEqual(loadConfig({}).referenceRates, { url: undefined, intervalMs: 6 * 3_600_000 });
    const on = loadConfig({
      ACCOUNTING_REFERENCE_RATES_URL: 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml',
      ACCOUNTING_REFERENCE_RATES_INTERVAL: '1d',
    });
    assert.equal(on.referenceRates.url, 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml');
    assert.equal(on.referenceRates.intervalMs, 86_400_000);
    for (const [name, value] of [
      ['ACCOUNTING_REFERENCE_RATES_URL', 'www.ecb.europa.eu/eurofxref-daily.xml'],
      ['ACCOUNTING_REFERENCE_RATES_URL', 'file:///etc/passwd'],
      ['ACCOUNTING_REFERENCE_RATES_URL', 'https://user:pw@rates.example.com/daily.xml'],
      ['ACCOUNTING_REFERENCE_RATES_INTERVAL', '1m'],
      ['ACCOUNTING_REFERENCE_RATES_INTERVAL', '8d'],
    ] as const) {
      assert.throws(() => loadConfig({ [name]: value }), ConfigError, `${name}=${value}`);
    }
  });

  it('reads every duration setting with one syntax, d included, and refuses more than ten years', () => {
    assert.equal(loadConfig({ ACCOUNTING_IDEMPOTENCY_TTL: '2d' }).idempotencyTtlMs, 2 * 86_400_000);
    assert.equal(loadConfig({ ACCOUNTING_WEBHOOK_LEASE: '2m' }).webhooks.delivery.leaseMs, 120_000);
    assert.equal(loadConfig({ ACCOUNTING_IDEMPOTENCY_LOCK: '1500' }).idempotencyLockMs, 1500);
    assert.equal(loadConfig({ ACCOUNTING_IDEMPOTENCY_TTL: '3650d' }).idempotencyTtlMs, 3650 * 86_400_000);
    for (const [name, value] of [
      ['ACCOUNTING_IDEMPOTENCY_TTL', '3651d'],
      ['ACCOUNTING_IDEMPOTENCY_TTL', '999999999999d'],
      ['ACCOUNTING_WEBHOOK_LEASE', '999999999999d'],
      ['ACCOUNTING_IDEMPOTENCY_LOCK', '1.5s'],
      ['ACCOUNTING_RATE_LIMIT', '10/1w'],
    ] as const) {
      assert.throws(() => loadConfig({ [name]: value }), new RegExp(name), `${name}=${value}`);
    }
  });

  it('reads booleans strictly, so a typo cannot flip a security setting', () => {
    assert.equal(
      loadConfig({ ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST: 'off' }).webhooks.allowLocalhostHttp,
      false,
    );
    assert.equal(
      loadConfig({ ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST: 'TRUE' }).webhooks.allowLocalhostHttp,
      true,
    );
    assert.equal(loadConfig({}).webhooks.allowLocalhostHttp, true);
    assert.equal(loadConfig({ NODE_ENV: 'production' }).webhooks.allowLocalhostHttp, false);
    assert.equal(
      loadConfig({ NODE_ENV: 'production', ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST: 'on' }).webhooks
        .allowLocalhostHttp,
      true,
    );
    assert.match(
      localhostExceptionNotice(loadConfig({ NODE_ENV: 'production' })),
      /refused \(default for NODE_ENV production\)/,
    );
    assert.throws(
      () => loadConfig({ ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST: 'flase' }),
      /ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST/,
    );
  });

  it('lists the ports the localhost exception reaches: none by default, a list, or any', () => {
    assert.deepEqual(loadConfig({}).webhooks.localhostPorts, []);
    assert.deepEqual(loadConfig({ ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: '' }).webhooks.localhostPorts, []);
    assert.deepEqual(
      loadConfig({ ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: ' 3000, 8080,3000 ' }).webhooks.localhostPorts,
      [3000, 8080],
    );
    assert.equal(loadConfig({ ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: 'ANY' }).webhooks.localhostPorts, 'any');
    for (const value of ['0', '65536', '3000;4000', 'http', '30 00', '-1', '3000,']) {
      assert.throws(
        () => loadConfig({ ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: value }),
        /ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: .* is not a port/,
        value,
      );
    }
    assert.match(
      localhostExceptionNotice(loadConfig({})),
      /allowed .* on no port until ACCOUNTING_WEBHOOK_LOCALHOST_PORTS lists some/,
    );
    assert.match(
      localhostExceptionNotice(loadConfig({ ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: '4000' })),
      /on ports 4000 \(ACCOUNTING_WEBHOOK_LOCALHOST_PORTS\)$/,
    );
  });
});
