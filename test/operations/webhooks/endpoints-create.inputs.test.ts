import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { call } from '../../support/http.ts';
import { createEndpoint } from '../../webhooks/endpoint-helpers.ts';

/** [url, reason]: every one refused with 400 webhook_url_not_allowed and that details.reason. */
const REFUSED_URLS: Array<[string, string]> = [
  ['http://hooks.example.com/in', 'url_scheme_not_allowed'],
  ['ftp://hooks.example.com/in', 'url_scheme_not_allowed'],
  ['https://hooks.example.com:80/in', 'url_port_not_allowed'],
  ['https://hooks.example.com:8080/in', 'url_port_not_allowed'],
  ['https://user:pw@hooks.example.com/in', 'url_credentials_not_allowed'],
  ['https://127.0.0.1/in', 'url_host_not_allowed'],
  ['https://2130706433/in', 'url_host_not_allowed'],
  ['https://0x7f.1/in', 'url_host_not_allowed'],
  ['https://0177.0.0.1/in', 'url_host_not_allowed'],
  ['https://10.0.0.5/in', 'url_host_not_allowed'],
  ['https://192.168.1.1:8443/in', 'url_host_not_allowed'],
  ['https://169.254.169.254/latest/meta-data', 'url_host_not_allowed'],
  ['https://100.64.0.1/in', 'url_host_not_allowed'],
  ['https://[::1]/in', 'url_host_not_allowed'],
  ['https://[::ffff:127.0.0.1]/in', 'url_host_not_allowed'],
  ['https://[64:ff9b::a00:1]/in', 'url_host_not_allowed'],
  ['https://[2002:7f00:1::]/in', 'url_host_not_allowed'],
  ['https://[fe80::1]/in', 'url_host_not_allowed'],
  ['https://224.0.0.1/in', 'url_host_not_allowed'],
  ['https://192.0.2.10/in', 'url_host_not_allowed'],
  ['https://localhost/in', 'url_host_not_allowed'],
  ['https://printer.local/in', 'url_host_not_allowed'],
  ['https://intranet/in', 'url_host_not_allowed'],
  ['http://127.0.0.1:3000/in', 'url_scheme_not_allowed'],
  ['not a url', 'invalid_url'],
];

for (const dialect of DIALECTS) {
  describe(`webhook endpoint input rules (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      admin = await createCaller(app);
    });
    after(() => app.close());
    const create = (input: Record<string, unknown>) =>
      call(app.baseUrl, 'webhooks.endpoints.create', { events: ['*'], ...input }, { token: admin.token });
    const count = async () =>
      Number(
        (
          await app.services.db.kysely
            .selectFrom('webhook_endpoints')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('organization_id', '=', admin.organizationId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('refuses private, local and malformed URLs through the API, storing nothing', async () => {
      const before = await count();
      for (const [url, reason] of REFUSED_URLS) {
        const res = await create({ url });
        assertError(res, 400, 'webhook_url_not_allowed', url);
        assert.equal(res.error.field, 'url', url);
        assert.equal(res.error.reason, reason, url);
      }
      assert.equal(await count(), before);
    });

    it('refuses the same URLs on update, leaving the endpoint unchanged', async () => {
      const { endpoint } = await createEndpoint(app, admin);
      for (const [url, reason] of REFUSED_URLS.slice(0, 8)) {
        const res = await call(
          app.baseUrl,
          'webhooks.endpoints.update',
          { id: endpoint.id, expectedRevision: 1, url },
          { token: admin.token },
        );
        assertError(res, 400, 'webhook_url_not_allowed', url);
        assert.equal(res.error.reason, reason);
      }
      const get = await call(
        app.baseUrl,
        'webhooks.endpoints.get',
        { id: endpoint.id },
        { token: admin.token },
      );
      assert.equal(get.data.revision, 1);
      assert.equal(get.data.url, endpoint.url);
    });

    it('accepts https on 443 and 8443 to public hosts, and http://localhost in development', async () => {
      for (const [url, stored] of [
        ['https://hooks.example.com', 'https://hooks.example.com/'],
        ['https://hooks.example.com:443/a', 'https://hooks.example.com/a'],
        ['https://HOOKS.example.com:8443/a?b=c', 'https://hooks.example.com:8443/a?b=c'],
        ['https://93.184.215.14/in', 'https://93.184.215.14/in'],
        ['http://localhost:4567/hook', 'http://localhost:4567/hook'],
      ]) {
        const res = await create({ url });
        assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
        assert.equal((res.data.endpoint as { url: string }).url, stored);
      }
    });

    it('validates event patterns against the catalog', async () => {
      const cases: Array<[unknown, number, string, string | undefined]> = [
        [[], 400, 'invalid_input', 'events'],
        [['invoice.paid', 'invoice.paid'], 400, 'invalid_input', 'events'],
        [['no.such_type'], 400, 'unknown_event_type', 'events.0'],
        [['*', 'nosuchgroup.*'], 400, 'unknown_event_type', 'events.1'],
        [['contractor.created.*'], 400, 'unknown_event_type', 'events.0'],
        [['Contractor.Created'], 400, 'invalid_input', 'events.0'],
        [['contractor.*.created'], 400, 'invalid_input', 'events.0'],
        [[''], 400, 'invalid_input', undefined],
        [Array.from({ length: 51 }, (_, i) => `x${i}.*`), 400, 'invalid_input', 'events'],
        ['*', 400, 'invalid_input', 'events'],
      ];
      for (const [events, status, code, field] of cases) {
        const res = await create({ url: 'https://hooks.example.com/', events });
        assertError(res, status, code, JSON.stringify(events));
        if (field) assert.equal(res.error.field, field, JSON.stringify(events));
      }
      for (const events of [
        ['*'],
        ['invoice.paid'],
        ['contractor.*', 'webhook.endpoint.*', 'invitation.sent'],
      ]) {
        const res = await create({ url: 'https://hooks.example.com/', events });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual((res.data.endpoint as { events: string[] }).events, events);
      }
    });

    it('bounds description and refuses unknown fields', async () => {
      assertError(
        await create({ url: 'https://a.example.com/', description: 'x'.repeat(501) }),
        400,
        'invalid_input',
      );
      assertError(
        await create({ url: 'https://a.example.com/', secret: 'whsec_mine' }),
        400,
        'unknown_field',
      );
      assertError(await create({ url: 'https://a.example.com/', status: 'disabled' }), 400, 'unknown_field');
      const ok = await create({ url: 'https://a.example.com/', description: 'x'.repeat(500) });
      assert.equal(ok.status, 200);
    });
  });

  describe(`webhook endpoint URLs in production mode (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect, { env: { ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST: 'false' } });
      admin = await createCaller(app);
    });
    after(() => app.close());

    it('refuses http://localhost when the operator turned the exception off', async () => {
      const res = await call(
        app.baseUrl,
        'webhooks.endpoints.create',
        { url: 'http://localhost:4567/hook', events: ['*'] },
        { token: admin.token },
      );
      assertError(res, 400, 'webhook_url_not_allowed');
      assert.equal(res.error.reason, 'url_scheme_not_allowed');
    });
  });

  describe(`webhook endpoint URLs on the ports the operator lists (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    before(async () => {
      app = await startTestApp(dialect, { env: { ACCOUNTING_WEBHOOK_LOCALHOST_PORTS: '3000, 4000' } });
      admin = await createCaller(app);
    });
    after(() => app.close());

    it('accepts http://localhost on a listed port and refuses any other, naming the setting', async () => {
      const listed = await call(
        app.baseUrl,
        'webhooks.endpoints.create',
        { url: 'http://localhost:4000/hook', events: ['*'] },
        { token: admin.token },
      );
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      for (const url of ['http://localhost:5432/', 'http://localhost/hook', 'http://localhost:6379/']) {
        const res = await call(
          app.baseUrl,
          'webhooks.endpoints.create',
          { url, events: ['*'] },
          { token: admin.token },
        );
        assertError(res, 400, 'webhook_url_not_allowed', url);
        assert.equal(res.error.reason, 'url_port_not_allowed');
        assert.equal(res.error.field, 'url');
        assert.match(res.error.message, /ACCOUNTING_WEBHOOK_LOCALHOST_PORTS \(listed: 3000, 4000\)/);
      }
    });
  });
}
