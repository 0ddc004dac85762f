import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';

/** The same flags CI's sandbox needs; background networking off so only the page makes requests. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const [dialect] = DIALECTS;
if (dialect) {
  describe(`interactive docs at /docs in Chromium (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app.close());

    it('renders the operations from the local document and script, with no request leaving 127.0.0.1', async () => {
      const browser = await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: CHROMIUM_ARGS,
      });
      try {
        const context = await browser.newContext();
        const requested: string[] = [];
        // Every request the page makes is seen here; anything not on our loopback server is refused.
        await context.route('**/*', async (route) => {
          const url = route.request().url();
          requested.push(url);
          const { protocol, hostname } = new URL(url);
          if ((protocol === 'http:' || protocol === 'https:') && hostname !== '127.0.0.1') {
            await route.abort('blockedbyclient');
          } else {
            await route.continue();
          }
        });
        const page = await context.newPage();
        const response = await page.goto(`${app.baseUrl}/docs`, { waitUntil: 'load' });
        assert.equal(response?.status(), 200);
        await page.getByText('Create a contractor').first().waitFor({ timeout: 30_000 });
        assert.ok(await page.getByText('List contractors, newest first').first().isVisible());
        assert.ok(
          requested.some((url) => url.endsWith('/docs/swagger-ui-bundle.js')),
          'script served locally',
        );
        assert.ok(
          requested.some((url) => url.endsWith('/api/v1/openapi.json')),
          'document loaded',
        );
        const outside = requested.filter((url) => {
          const { protocol, hostname } = new URL(url);
          return (
            (protocol === 'http:' || protocol === 'https:' || protocol === 'ws:') && hostname !== '127.0.0.1'
          );
        });
        assert.deepEqual(outside, [], 'requests that would have left the machine');
      } finally {
        await browser.close();
      }
    });
  });
}
