import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findOperation } from '../../src/operations/catalog.ts';
import { MAX_INPUT_DEPTH } from '../../src/operations/validation.ts';
import { callTool, connectHttp } from '../mcp/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';
import { contractorInput, exampleOf, makeThrough } from '../support/factories.ts';
import { type ApiResponse, call } from '../support/http.ts';

/**
 * Input that JSON can carry but the databases cannot store, or that would crash the process:
 * unpaired UTF-16 surrogates (jsonb refuses them on PostgreSQL, SQLite turns them into U+FFFD),
 * nesting deep enough to overflow the stack, bytes that are not UTF-8, and query parameter names
 * that are Object.prototype's. Each is a 400 on both databases and stores nothing.
 */

/** Sends bytes as they are (fetch would re-encode a JS string as UTF-8). */
function rawCall(app: TestApp, operation: string, body: Buffer, token: string): Promise<ApiResponse> {
  return call(app.baseUrl, operation, {}, { token, rawBody: body });
}

/** A JSON object text with `inner` spliced in as raw JSON (escapes stay escapes). */
function jsonWith(fields: Record<string, unknown>, raw: string): string {
  const text = JSON.stringify(fields);
  return `${text.slice(0, -1)}${text === '{}' ? '' : ','}${raw}}`;
}

function example(name: string): Record<string, unknown> {
  const operation = findOperation(name);
  assert.ok(operation, name);
  return exampleOf(operation);
}

function nested(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

for (const dialect of DIALECTS) {
  describe(`input encoding (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    const contractorCount = async () =>
      Number(
        (
          await app.services.db.kysely
            .selectFrom('contractors')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('organization_id', '=', admin.organizationId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const eventCount = async () =>
      Number(
        (
          await app.services.db.kysely
            .selectFrom('events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('organization_id', '=', admin.organizationId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app?.close());

    it('refuses unpaired surrogates in any string or key with 400 naming the field, storing nothing', async () => {
      const before = [await contractorCount(), await eventCount()];
      const base = contractorInput();
      const { displayName: _name, ...rest } = base;
      const cases: Array<[string, string, string]> = [
        ['lone high surrogate', jsonWith(rest, '"displayName":"\\ud800"'), 'displayName'],
        ['lone low surrogate inside text', jsonWith(rest, '"displayName":"a\\udc00b"'), 'displayName'],
        ['pair in the wrong order', jsonWith(rest, '"displayName":"\\udc00\\ud800"'), 'displayName'],
        ['high surrogate at the end', jsonWith(rest, '"displayName":"Ada \\ud83d"'), 'displayName'],
        ['key with a lone surrogate', jsonWith(base, '"x\\ud800":"1"'), 'x\\ud800'],
        ['key with NUL', jsonWith(base, '"x\\u0000":"1"'), 'x\\u0000'],
      ];
      for (const [label, rawBody, field] of cases) {
        const res = await call(app.baseUrl, 'contractors.create', {}, { token: admin.token, rawBody });
        assertError(res, 400, 'invalid_input', label);
        assert.equal(res.error.field, field, label);
        assert.match(res.error.message, /surrogate|NUL/, label);
      }
      assert.deepEqual([await contractorCount(), await eventCount()], before);

      // A proper pair is one character (U+1F600) and is stored as sent.
      const emoji = await call(
        app.baseUrl,
        'contractors.create',
        {},
        { token: admin.token, rawBody: jsonWith(rest, '"displayName":"Ada \\ud83d\\ude00"') },
      );
      assert.equal(emoji.status, 200, JSON.stringify(emoji.body));
      assert.equal(emoji.data.display_name, 'Ada \u{1F600}');
    });

    it('refuses unpaired surrogates in arrays and nested objects (events.1, lines.1.description)', async () => {
      const endpoint = example('webhooks.endpoints.create');
      const { events: _events, ...endpointRest } = endpoint;
      const res = await call(
        app.baseUrl,
        'webhooks.endpoints.create',
        {},
        { token: admin.token, rawBody: jsonWith(endpointRest, '"events":["contractor.*","\\udfff"]') },
      );
      assertError(res, 400, 'invalid_input', 'array item');
      assert.equal(res.error.field, 'events.1');

      const party = await makeThrough(app, admin, 'parties.create', example('parties.create'));
      const invoice: Record<string, unknown> = { ...example('invoices.create'), partyId: party.id };
      const { lines: _lines, ...invoiceRest } = invoice;
      const lines =
        '"lines":[{"description":"ok","quantity":"1","unitAmountMinor":"100"},' +
        '{"description":"bad \\ud800","quantity":"1","unitAmountMinor":"100"}]';
      const nestedRes = await call(
        app.baseUrl,
        'invoices.create',
        {},
        { token: admin.token, rawBody: jsonWith(invoiceRest, lines) },
      );
      assertError(nestedRes, 400, 'invalid_input', 'nested object');
      assert.equal(nestedRes.error.field, 'lines.1.description');
    });

    it(`refuses nesting deeper than ${MAX_INPUT_DEPTH} levels with 400, never a stack overflow`, async () => {
      for (const levels of [MAX_INPUT_DEPTH, 5000, 100_000]) {
        const res = await call(
          app.baseUrl,
          'contractors.list',
          {},
          { token: admin.token, rawBody: `{"query":${nested(levels)}}` },
        );
        assertError(res, 400, 'invalid_input', `${levels} levels`);
        assert.equal(res.error.field, 'query');
        assert.match(res.error.message, new RegExp(`more than ${MAX_INPUT_DEPTH} levels`), `${levels}`);
      }
      // Exactly the limit (the body object is level 1): the schema decides, not the depth check.
      const atLimit = await call(
        app.baseUrl,
        'contractors.list',
        {},
        { token: admin.token, rawBody: `{"query":${nested(MAX_INPUT_DEPTH - 1)}}` },
      );
      assertError(atLimit, 400, 'invalid_input', 'at the limit');
      assert.doesNotMatch(atLimit.error.message, /levels deep/);
      // Deep nesting inside an unknown field is refused the same way.
      const unknown = await call(
        app.baseUrl,
        'contractors.create',
        {},
        { token: admin.token, rawBody: jsonWith(contractorInput(), `"extra":{"a":${nested(5000)}}`) },
      );
      assertError(unknown, 400, 'invalid_input', 'deep unknown field');
      assert.equal(unknown.error.field, 'extra');
    });

    it('refuses bytes that are not UTF-8 with 400 invalid_json, storing nothing', async () => {
      const before = await contractorCount();
      const { displayName: _name, ...rest } = contractorInput();
      const head = Buffer.from(jsonWith(rest, '"displayName":"Ada').slice(0, -1));
      const body = (bytes: number[]) => Buffer.concat([head, Buffer.from(bytes), Buffer.from('"}')]);
      const cases: Array<[string, number[]]> = [
        ['0xff 0xfe', [0xff, 0xfe]],
        ['lone continuation byte', [0x80]],
        ['overlong slash', [0xc0, 0xaf]],
        ['UTF-8 encoded surrogate', [0xed, 0xa0, 0x80]],
        ['truncated sequence', [0xe2, 0x82]],
        ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
      ];
      for (const [label, bytes] of cases) {
        const res = await rawCall(app, 'contractors.create', body(bytes), admin.token);
        assertError(res, 400, 'invalid_json', label);
        assert.match(res.error.message, /UTF-8/, label);
      }
      assert.equal(await contractorCount(), before);

      // Proper multi-byte text is stored exactly; one leading byte order mark is ignored.
      const accented = await rawCall(
        app,
        'contractors.create',
        Buffer.from(JSON.stringify(contractorInput({ displayName: 'Café Zoë 東京' }))),
        admin.token,
      );
      assert.equal(accented.status, 200, JSON.stringify(accented.body));
      assert.equal(accented.data.display_name, 'Café Zoë 東京');
      const bom = await rawCall(
        app,
        'contractors.list',
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"limit":1}')]),
        admin.token,
      );
      assert.equal(bom.status, 200, JSON.stringify(bom.body));
      // Only JSON whitespace surrounds a body: a second BOM or a no-break space is not JSON.
      for (const [label, prefix] of [
        ['two BOMs', [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]],
        ['no-break space', [0xc2, 0xa0]],
      ] as const) {
        const res = await rawCall(
          app,
          'contractors.list',
          Buffer.concat([Buffer.from(prefix), Buffer.from('{"limit":1}')]),
          admin.token,
        );
        assertError(res, 400, 'invalid_json', label);
      }
    });

    it('refuses Object.prototype names in a query string as unknown parameters', async () => {
      for (const name of [
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
        'valueOf',
        '__defineGetter__',
      ]) {
        const res = await call(app.baseUrl, 'contractors.list', Object.fromEntries([[name, '1']]), {
          token: admin.token,
          method: 'GET',
        });
        assertError(res, 400, 'unknown_parameter', name);
        assert.equal(res.error.field, name);
        assert.equal(res.error.message, `${name} is not an accepted parameter.`);
      }
      // In a body, the same names are unknown fields (Ajv looks at own properties).
      const body = await call(
        app.baseUrl,
        'contractors.list',
        {},
        { token: admin.token, rawBody: '{"__proto__":{"limit":1}}' },
      );
      assertError(body, 400, 'unknown_field', '__proto__ in a body');
      assert.equal(body.error.field, '__proto__');
    });

    it('MCP tool arguments get the same checks (surrogates, depth)', async () => {
      const connection = await connectHttp(app, admin.token);
      try {
        const surrogate = await callTool(connection.client, 'accounting_contractors_list', {
          query: 'a\ud800',
        });
        assert.equal(surrogate.isError, true);
        assert.deepEqual([surrogate.error.code, surrogate.error.field], ['invalid_input', 'query']);
        // The SDK client cannot serialize 5000 levels itself, so this call is sent as raw JSON-RPC.
        const response = await fetch(`${app.baseUrl}/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${admin.token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"accounting_contractors_list","arguments":{"query":${nested(5000)}}}}`,
        });
        assert.equal(response.status, 200);
        const text = await response.text();
        const message = JSON.parse(
          text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text),
        ) as {
          result?: {
            isError?: boolean;
            structuredContent?: { error?: { code?: string; field?: string; message?: string } };
          };
        };
        const error = message.result?.structuredContent?.error;
        assert.equal(message.result?.isError, true, text.slice(0, 300));
        assert.deepEqual([error?.code, error?.field], ['invalid_input', 'query'], text.slice(0, 300));
        assert.match(String(error?.message), /levels deep/);
      } finally {
        await connection.close();
      }
    });
  });
}
