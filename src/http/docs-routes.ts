import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OPENAPI_PATH } from '../openapi/document.ts';

/**
 * Interactive API reference at /docs: Swagger UI's browser bundle (swagger-ui-dist, static files
 * with no dependencies and no engine constraint), served by this process from node_modules, never
 * from a CDN (decision 270). Nothing is loaded at start: the files are streamed from disk when a
 * browser asks for them.
 */
const ASSETS: ReadonlyMap<string, string> = new Map([
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

/**
 * Only this origin: no validator badge (validatorUrl: null would otherwise be
 * validator.swagger.io), no fonts or scripts from elsewhere. Swagger UI sets inline styles.
 */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Accounting Service API</title>
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

/** Our settings, as a script file of its own so the page needs no inline script. */
const INIT = `window.ui = SwaggerUIBundle(${JSON.stringify({
  url: OPENAPI_PATH,
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  docExpansion: 'list',
  defaultModelsExpandDepth: -1,
  displayRequestDuration: true,
  filter: true,
})});
`;

let located: { dir: string; version: string } | undefined;

function swaggerUi(): { dir: string; version: string } {
  if (!located) {
    const manifest = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    located = { dir: path.dirname(manifest), version };
  }
  return located;
}

function html(reply: FastifyReply, type: string, body: string): FastifyReply {
  return reply
    .type(type)
    .header('Cache-Control', 'no-cache')
    .header('Content-Security-Policy', CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .send(body);
}

export function docsRoutes(app: FastifyInstance): void {
  // `/docs/` too: most links to an API reference end with a slash (the page's URLs are absolute).
  for (const url of ['/docs', '/docs/'])
    app.get(url, (_request, reply) => html(reply, 'text/html; charset=utf-8', PAGE));
  app.get('/docs/init.js', (_request, reply) => html(reply, 'text/javascript; charset=utf-8', INIT));
  app.get('/docs/:file', (request: FastifyRequest<{ Params: { file: string } }>, reply) => {
    const type = ASSETS.get(request.params.file);
    // Anything else under /docs goes to the usual 404 (with our error body and headers).
    if (type === undefined) return reply.callNotFound();
    const { dir, version } = swaggerUi();
    // The files change only with the pinned package version.
    const etag = `"swagger-ui-${version}-${request.params.file}"`;
    reply
      .header('ETag', etag)
      .header('Cache-Control', 'no-cache')
      .header('X-Content-Type-Options', 'nosniff');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type(type).send(createReadStream(path.join(dir, request.params.file)));
  });
}
