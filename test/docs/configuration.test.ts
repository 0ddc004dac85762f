import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.ts';

/** Passed through to child processes by the test harness; not settings of ours. */
const OS_VARIABLES = new Set(['PATH', 'HOME']);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** Names read from the environment: `env.NAME`, `env['NAME']`, and setting names given as strings. */
function variablesRead(files: readonly string[]): Set<string> {
  const names = new Set<string>();
  const patterns = [
    /\benv\.([A-Z][A-Z0-9_]+)/g,
    /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g,
    /['"`]((?:ACCOUNTING|TEST)_[A-Z0-9_]+)['"`]/g,
  ];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns)
      for (const match of text.matchAll(pattern)) if (match[1]) names.add(match[1]);
  }
  return names;
}

describe('docs/configuration.md', () => {
  const doc = readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');

  it('documents every environment variable the service and the test harness read', () => {
    const read = variablesRead([
      ...sources(path.join(root, 'src')),
      ...sources(path.join(root, 'test/support')),
    ]);
    for (const name of ['PORT', 'DATABASE_URL', 'ACCOUNTING_RATE_LIMIT', 'SMTP_URL'])
      assert.ok(read.has(name), name);
    const missing = [...read].filter((name) => !OS_VARIABLES.has(name) && !doc.includes(`| \`${name}\` |`));
    assert.deepEqual(missing, [], `add to docs/configuration.md: ${missing.join(', ')}`);
  });

  it('states the defaults the code uses', () => {
    const config = loadConfig({});
    assert.deepEqual(config.rateLimit, { requests: 600, windowMs: 60_000 });
    assert.ok(doc.includes('| `ACCOUNTING_RATE_LIMIT` | `600/1m` |'));
    assert.equal(config.idempotencyTtlMs, 24 * 3_600_000);
    assert.ok(doc.includes('| `ACCOUNTING_IDEMPOTENCY_TTL` | `24h` |'));
    assert.equal(config.idempotencyLockMs, 60_000);
    assert.ok(doc.includes('| `ACCOUNTING_IDEMPOTENCY_LOCK` | `60s` |'));
    assert.deepEqual([config.port, config.host, config.dataDir], [8080, '127.0.0.1', './data']);
    assert.ok(doc.includes('| `PORT` | `8080` |') && doc.includes('| `HOST` | `127.0.0.1` |'));
    assert.deepEqual(
      [
        config.webhooks.delivery.timeoutMs,
        config.webhooks.delivery.leaseMs,
        config.webhooks.delivery.concurrency,
      ],
      [10_000, 60_000, 64],
    );
    assert.ok(doc.includes('| `ACCOUNTING_WEBHOOK_TIMEOUT` | `10s` |'));
    assert.ok(doc.includes('| `ACCOUNTING_WEBHOOK_CONCURRENCY` | `64` |'));
    assert.deepEqual(
      [config.schedules.noticeDays, config.schedules.catchUpDays, config.schedules.dueSoonDays],
      [3, 31, 3],
    );
  });
});
