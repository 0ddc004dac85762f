import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { default as addFormatsModule } from 'ajv-formats';
import { API_PREFIX, API_VERSION, SPEC_VERSION } from '../../src/contract/version.ts';
import { buildOpenApiDocument, OPENAPI_PATH } from '../../src/openapi/document.ts';
import { OPERATIONS } from '../../src/operations/catalog.ts';
import { acceptsGet } from '../../src/operations/define.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { openApiProblems } from '../support/openapi-validator.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
type Json = Record<string, unknown>;

const document = buildOpenApiDocument();

function resolve(ref: string): Json {
  let node: unknown = document;
  for (const part of ref.replace(/^#\//, '').split('/')) {
    node = (node as Json | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  assert.ok(node, `${ref} resolves`);
  return node as Json;
}

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) collectRefs(item, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else collectRefs(value, out);
    }
  }
  return out;
}

async function lint(source: Json) {
  // recommended-strict turns every warning into an error; a private service has no license to name.
  const config = await createConfig({ extends: ['recommended-strict'], rules: { 'info-license': 'off' } });
  return lintFromString({ source: JSON.stringify(source), absoluteRef: '/openapi.json', config });
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with the contract version, bearerAuth and named components', () => {
    assert.equal(document.openapi, '3.1.0');
    assert.equal(document.info.version, SPEC_VERSION);
    assert.equal(SPEC_VERSION, '1.2.0');
    assert.deepEqual(document.security, [{ bearerAuth: [] }]);
    assert.deepEqual(document.components.securitySchemes?.bearerAuth, {
      ...(document.components.securitySchemes?.bearerAuth as Json),
      type: 'http',
      scheme: 'bearer',
    });
    for (const name of Object.keys(document.components.schemas)) {
      assert.match(name, /^[A-Z][A-Za-z0-9._-]*$/, `component name ${name}`);
      assert.doesNotMatch(name, /def-\d/);
    }
    assert.ok(document.components.schemas.Error);
    assert.ok(!JSON.stringify(document.components.schemas).includes('"$id"'), 'no $id left in components');
  });

  it('carries a response example for every operation, valid against its own schema', () => {
    const headers = new Headers({ 'x-request-id': 'req_0', 'x-accounting-api-version': API_VERSION });
    let checked = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item as Record<string, Json>)) {
        const ok = (operation.responses as Record<string, Json>)['200'] as Json;
        const example = ((ok.content as Json)['application/json'] as Json).example as Json | undefined;
        assert.ok(example && 'data' in example, `${method} ${path} has a response example`);
        const withHeaders = new Headers(headers);
        for (const name of Object.keys((ok.headers ?? {}) as Json)) withHeaders.set(name, '1');
        withHeaders.set('content-type', 'application/json');
        const problems = openApiProblems({ method, path, status: 200, headers: withHeaders, body: example });
        assert.deepEqual(problems, [], `${method} ${path}`);
        checked += 1;
      }
    }
    assert.ok(checked >= OPERATIONS.length);
  });

  it('says where the idempotency key goes: the body for pause and rotateSecret, header or body elsewhere', () => {
    const idempotencyLine = (name: string) =>
      String((document.paths[`/api/v1/accounting/${name}`]?.post as Json | undefined)?.description)
        .split('\n')
        .find((line) => line.startsWith('**Idempotency:**'));
    for (const name of ['invoices.schedules.pause', 'webhooks.endpoints.rotateSecret']) {
      assert.match(idempotencyLine(name) ?? '', /required in the body: `idempotencyKey` \(8-200\)/, name);
    }
    assert.match(
      idempotencyLine('contractors.create') ?? '',
      /header `Idempotency-Key` \(8-200\) or body `idempotencyKey` \(8-150\)/,
    );
  });

  it('has every operation of the catalog, POST always, GET only for reads', () => {
    for (const operation of OPERATIONS) {
      const item = document.paths[`${API_PREFIX}/${operation.name}`];
      assert.ok(item?.post, `${operation.name} has POST`);
      if (!acceptsGet(operation)) assert.equal(item.get, undefined, `${operation.name} is POST only`);
      const post = item.post as Json;
      assert.equal(post.operationId, operation.name);
      assert.ok(typeof post.summary === 'string' && post.summary.length > 0);
      assert.ok(typeof post.description === 'string' && post.description.length > 0);
      const responses = post.responses as Json;
      for (const status of ['200', '400', '401', '403', '404', '413', '415', '429', '500', '503']) {
        assert.ok(responses[status], `${operation.name} documents ${status}`);
      }
      if (operation.mutation) {
        assert.ok(responses['409'], `${operation.name} documents 409`);
        assert.ok(
          collectRefs(post.parameters).includes('#/components/parameters/IdempotencyKeyHeader'),
          `${operation.name} takes Idempotency-Key`,
        );
      }
      const data = (((responses['200'] as Json).content as Json)['application/json'] as Json).schema as Json;
      assert.deepEqual(data.required, ['data']);
      const headers = (responses['200'] as Json).headers as Json;
      assert.ok(headers['X-Request-Id'] && headers['X-Accounting-API-Version']);
    }
  });

  it('lists the error codes, Retry-After and the one Error schema on error responses', () => {
    const tooMany = resolve('#/components/responses/TooManyRequests');
    assert.ok((tooMany.headers as Json)['Retry-After']);
    assert.match(String(tooMany.description), /rate_limited/);
    for (const name of Object.keys(document.components.responses ?? {})) {
      const response = resolve(`#/components/responses/${name}`);
      const schema = ((response.content as Json)['application/json'] as Json).schema as Json;
      assert.equal(schema.$ref, '#/components/schemas/Error');
    }
    const parameters = document.components.parameters as Json;
    assert.equal((parameters.IdempotencyKeyHeader as Json).name, 'Idempotency-Key');
    assert.equal((parameters.OrganizationHeader as Json).name, 'X-Accounting-Organization');
  });

  it('resolves every $ref', () => {
    for (const ref of collectRefs(document)) resolve(ref);
  });

  it('describes every input field of every operation', () => {
    const missing: string[] = [];
    for (const operation of OPERATIONS) {
      const properties = (operation.input as { properties?: Record<string, { description?: string }> })
        .properties;
      for (const [field, schema] of Object.entries(properties ?? {})) {
        if (!schema.description) missing.push(`${operation.name}.${field}`);
      }
    }
    assert.deepEqual(missing, [], 'input fields without a description');
  });

  it('describes every property of every response component', () => {
    type Node = {
      description?: string;
      $ref?: string;
      properties?: Record<string, Node>;
      items?: Node;
      anyOf?: Node[];
      oneOf?: Node[];
      allOf?: Node[];
    };
    const missing: string[] = [];
    const walk = (node: Node | undefined, path: string): void => {
      if (!node || typeof node !== 'object') return;
      for (const [name, child] of Object.entries(node.properties ?? {})) {
        if (!child.description && !child.$ref) missing.push(`${path}.${name}`);
        walk(child, `${path}.${name}`);
      }
      if (node.items) walk(node.items, `${path}[]`);
      for (const variants of [node.anyOf, node.oneOf, node.allOf]) {
        for (const variant of variants ?? []) walk(variant, path);
      }
    };
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      if (!name.endsWith('Request')) walk(schema as Node, name);
    }
    assert.deepEqual(missing, [], 'response properties without a description');
  });

  it('carries a valid example for every operation', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const problems: string[] = [];
    for (const operation of OPERATIONS) {
      if (operation.example === undefined) {
        problems.push(`${operation.name}: no example`);
        continue;
      }
      const validate = ajv.compile(JSON.parse(JSON.stringify(operation.input)));
      if (!validate(structuredClone(operation.example))) {
        problems.push(`${operation.name}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    assert.deepEqual(problems, [], 'operation examples (they feed OpenAPI, MCP and the security tests)');
  });

  it('lints clean with Redocly recommended-strict, and the linter does catch a broken document', async () => {
    const problems = await lint(document);
    assert.deepEqual(
      problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`),
      [],
    );
    const broken = structuredClone(document) as Json;
    const paths = broken.paths as Record<string, Json>;
    const first = Object.values(paths)[0] as Json;
    (first.post as Json).responses = { '200': { $ref: '#/components/responses/Missing' } };
    assert.ok((await lint(broken)).length > 0);
  });

  it('the response validator rejects what the document does not promise', () => {
    const headers = new Headers({ 'x-request-id': 'req_1', 'x-accounting-api-version': API_VERSION });
    const path = `${API_PREFIX}/contractors.get`;
    assert.deepEqual(
      openApiProblems({
        method: 'POST',
        path,
        status: 404,
        headers,
        body: { error: { code: 'not_found', message: 'x', request_id: 'r' } },
      }),
      [],
    );
    assert.ok(
      openApiProblems({ method: 'POST', path, status: 200, headers, body: { data: { id: 'nope' } } }).length,
    );
    assert.ok(openApiProblems({ method: 'POST', path, status: 418, headers, body: {} }).length);
    assert.ok(
      openApiProblems({
        method: 'POST',
        path,
        status: 404,
        headers: new Headers(),
        body: { error: { code: 'not_found', message: 'x', request_id: 'r' } },
      }).length,
    );
  });
});

const [dialect] = DIALECTS;
if (dialect) {
  describe(`GET ${OPENAPI_PATH} (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app.close());

    it('serves the document without a credential, with the usual headers', async () => {
      const response = await fetch(`${app.baseUrl}${OPENAPI_PATH}`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(response.headers.get('x-accounting-api-version'), API_VERSION);
      assert.ok(response.headers.get('x-request-id'));
      assert.deepEqual(await response.json(), JSON.parse(JSON.stringify(document)));
    });
  });
}
