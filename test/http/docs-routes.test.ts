import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OPENAPI_PATH } from '../../src/openapi/document.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';

/** /docs serves Swagger UI from node_modules and only the files it needs (decision 270). */
for (const dialect of DIALECTS) {
  describe(`/docs files (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app.close());

    it('serves the page with a policy that keeps every request on this origin', async () => {
      const res = await fetch(`${app.baseUrl}/docs`);
      assert.equal(res.status, 200);
      // With the trailing slash most links to an API reference carry, the same page.
      const slash = await fetch(`${app.baseUrl}/docs/`);
      assert.equal(slash.status, 200);
      assert.equal(await slash.text(), await res.clone().text());
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      const policy = res.headers.get('content-security-policy') ?? '';
      assert.match(policy, /default-src 'none'/);
      assert.match(policy, /script-src 'self'/);
      assert.match(policy, /connect-src 'self'/);
      const html = await res.text();
      assert.match(html, /src="\/docs\/swagger-ui-bundle\.js"/);
      assert.match(html, /src="\/docs\/init\.js"/);
    });

    it('points Swagger UI at the local document with the online validator off', async () => {
      const res = await fetch(`${app.baseUrl}/docs/init.js`);
      assert.equal(res.status, 200);
      const script = await res.text();
      assert.ok(script.includes(JSON.stringify(OPENAPI_PATH)));
      assert.ok(script.includes('"validatorUrl":null'));
    });

    it('serves the bundle and style sheet with an ETag, and answers 304 to it', async () => {
      const css = await fetch(`${app.baseUrl}/docs/swagger-ui.css`);
      assert.equal(css.status, 200);
      assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
      assert.ok((await css.text()).length > 10_000);
      const etag = css.headers.get('etag');
      assert.ok(etag);
      const again = await fetch(`${app.baseUrl}/docs/swagger-ui.css`, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304);
      const bundle = await fetch(`${app.baseUrl}/docs/swagger-ui-bundle.js`);
      assert.equal(bundle.status, 200);
      assert.ok((await bundle.arrayBuffer()).byteLength > 100_000);
    });

    it('answers any other name under /docs with the usual 404', async () => {
      for (const name of [
        'index.html',
        'constructor',
        '__proto__',
        '..%2Fpackage.json',
        'swagger-ui.js.map',
      ]) {
        const res = await fetch(`${app.baseUrl}/docs/${name}`);
        assert.equal(res.status, 404, name);
        const body = (await res.json()) as { error?: { code?: string } };
        assert.equal(body.error?.code, 'not_found', name);
      }
    });
  });
}
