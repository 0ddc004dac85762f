import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

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
    assert.throws(
      () => loadConfig({ ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST: 'flase' }),
      /ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST/,
    );
  });
});
