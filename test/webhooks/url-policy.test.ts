import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkEndpointUrl,
  type EndpointUrlErrorCode,
  type EndpointUrlOptions,
  MAX_ENDPOINT_URL_LENGTH,
} from '../../src/webhooks/url-policy.ts';

const DEV = { allowLocalhostHttp: true, localhostPorts: 'any' } as const;
const PROD = { allowLocalhostHttp: false, localhostPorts: 'any' } as const;

// [raw URL, expected verdict, options]: 'ok' or the refusal code. Options default to PROD.
type Row = readonly [string, 'ok' | EndpointUrlErrorCode, EndpointUrlOptions?];
// The operator lists ports 3000 and 80; the default lists none.
const LISTED: EndpointUrlOptions = { allowLocalhostHttp: true, localhostPorts: [3000, 80] };
const UNLISTED: EndpointUrlOptions = { allowLocalhostHttp: true, localhostPorts: [] };

const HOST = 'url_host_not_allowed';
const SCHEME = 'url_scheme_not_allowed';
const PORT = 'url_port_not_allowed';
const CREDENTIALS = 'url_credentials_not_allowed';
const INVALID = 'invalid_url';

const TABLE: readonly Row[] = [
  // Accepted: public names and addresses on 443 or 8443.
  ['https://example.com', 'ok'],
  ['https://hooks.example.com/webhooks/accounting?x=1', 'ok'],
  ['https://example.com:443/x', 'ok'],
  ['https://example.com:8443/x', 'ok'],
  ['https://example.com:0443/x', 'ok'],
  ['https://example.com:08443/x', 'ok'],
  ['https://example.com:/x', 'ok'],
  ['https://EXAMPLE.COM/Path', 'ok'],
  ['https://example.com./', 'ok'],
  ['https://example.com/#fragment', 'ok'],
  ['https://bücher.example.com/', 'ok'],
  ['https://_webhooks.example.com/', 'ok'],
  ['https://8.8.8.8/', 'ok'],
  ['https://8.8.8.8:8443/', 'ok'],
  ['https://134744072/', 'ok'], // 8.8.8.8 in decimal: judged after normalization, public
  ['https://[2606:4700:4700::1111]/', 'ok'],
  ['https://[2606:4700:4700::1111]:8443/', 'ok'],
  ['https://[::ffff:8.8.8.8]/', 'ok'],
  ['https://[64:ff9b::8.8.8.8]/', 'ok'],
  // Names that only look local are public names; their addresses are judged at connect time.
  ['https://localhost.example.com/', 'ok'],
  ['https://my-localhost.com/', 'ok'],
  ['https://internal.example.com/', 'ok'],
  ['https://example.local.com/', 'ok'],
  ['https://127.0.0.1.nip.io/', 'ok'],
  ['https://0x7f.example.com/', 'ok'],
  ['https://example.com\\@127.0.0.1', 'ok'], // backslash is a path separator: host is example.com
  // The localhost exception: literal name, http, any port, only when the operator allows it.
  ['http://localhost', 'ok', DEV],
  ['http://localhost/hook', 'ok', DEV],
  ['http://localhost:3000/hook', 'ok', DEV],
  ['http://localhost:1', 'ok', DEV],
  ['http://LOCALHOST:8080', 'ok', DEV],
  ['http://localhost:3000/hook', SCHEME],
  ['http://127.0.0.1:3000/', SCHEME, DEV],
  ['http://[::1]:3000/', SCHEME, DEV],
  ['http://localhost.:3000/', SCHEME, DEV],
  ['http://app.localhost:3000/', SCHEME, DEV],
  ['http://2130706433:3000/', SCHEME, DEV],
  ['https://localhost/', HOST, DEV],
  ['https://localhost:8443/', HOST, DEV],
  ['http://user:pw@localhost:3000/', CREDENTIALS, DEV],
  // ...and only on the ports the operator lists (ACCOUNTING_WEBHOOK_LOCALHOST_PORTS).
  ['http://localhost:3000/hook', 'ok', LISTED],
  ['http://localhost/hook', 'ok', LISTED],
  ['http://localhost:80/hook', 'ok', LISTED],
  ['http://localhost:5432/', PORT, LISTED],
  ['http://localhost:3001/', PORT, LISTED],
  ['http://localhost:443/', PORT, LISTED],
  ['http://localhost:3000/', PORT, UNLISTED],
  ['http://localhost/', PORT, UNLISTED],
  ['http://127.0.0.1:3000/', SCHEME, LISTED],
  ['https://localhost:3000/', PORT, LISTED],
  // Schemes.
  ['http://example.com/', SCHEME],
  ['HTTP://example.com/', SCHEME],
  ['http://example.com:443/', SCHEME],
  ['ftp://example.com/', SCHEME],
  ['ws://example.com/', SCHEME],
  ['wss://example.com/', SCHEME],
  ['file:///etc/passwd', SCHEME],
  ['javascript:alert(1)', SCHEME],
  ['data:text/plain,hi', SCHEME],
  ['gopher://127.0.0.1:70/', SCHEME],
  ['dict://127.0.0.1:11211/', SCHEME],
  ['blob:https://example.com/uuid', SCHEME],
  ['https+unix://example.com/', SCHEME],
  // Unparseable or too long.
  ['', INVALID],
  ['not a url', INVALID],
  ['example.com', INVALID],
  ['//example.com/', INVALID],
  ['https://', INVALID],
  ['https://exa mple.com/', INVALID],
  ['https://[::1/', INVALID],
  ['https://[fe80::1%25eth0]/', INVALID], // zone ids are not allowed in URLs
  ['https://4294967296/', INVALID],
  ['https://0x100000000/', INVALID],
  ['https://1.2.3.4.5/', INVALID],
  ['https://256.0.0.1/', INVALID],
  ['https://xn--localhost/', INVALID],
  ['https://localhost%00/', INVALID],
  ['https://example.com:65536/', INVALID],
  [`https://example.com/${'a'.repeat(MAX_ENDPOINT_URL_LENGTH)}`, INVALID],
  // Dot segments vanish when parsed, so only the raw length check catches this one.
  [`https://example.com/${'./'.repeat(MAX_ENDPOINT_URL_LENGTH / 2)}x`, INVALID],
  // Credentials in any position.
  ['https://user@example.com/', CREDENTIALS],
  ['https://user:pass@example.com/', CREDENTIALS],
  ['https://:pass@example.com/', CREDENTIALS],
  ['https://example.com:443@evil.example/', CREDENTIALS],
  ['https://example.com@127.0.0.1/', CREDENTIALS],
  ['https://a@b@example.com/', CREDENTIALS],
  ['https://example.com%2F@127.0.0.1/', CREDENTIALS],
  // Ports.
  ['https://example.com:80/', PORT],
  ['https://example.com:8080/', PORT],
  ['https://example.com:444/', PORT],
  ['https://example.com:8444/', PORT],
  ['https://example.com:22/', PORT],
  ['https://example.com:6379/', PORT],
  ['https://example.com:65535/', PORT],
  ['https://example.com:0/', PORT],
  ['https://8.8.8.8:80/', PORT],
  ['https://127.0.0.1:22/', PORT],
  // IPv4 loopback in every spelling WHATWG URL and inet_aton accept.
  ['https://127.0.0.1/', HOST],
  ['https://127.0.0.1:8443/', HOST],
  ['https://127.0.0.1:/', HOST],
  ['https://127.0.0.255/', HOST],
  ['https://127.255.255.255/', HOST],
  ['https://127.1/', HOST],
  ['https://127.0.1/', HOST],
  ['https://2130706433/', HOST],
  ['https://0177.0.0.1/', HOST],
  ['https://0177.1/', HOST],
  ['https://0x7f.1/', HOST],
  ['https://0x7f000001/', HOST],
  ['https://0x7F.0x00.0x00.0x01/', HOST],
  ['https://0x7f.0.0.1/', HOST],
  ['https://017700000001/', HOST],
  ['https://127.000.000.001/', HOST],
  ['https://0x7F.000.00.01/', HOST],
  ['https://127.0.0.1./', HOST],
  ['https://127。0。0。1/', HOST],
  ['https://１２７.０.０.１/', HOST],
  ['https://①②⑦.0.0.1/', HOST],
  ['https://%31%32%37.0.0.1/', HOST],
  ['https:/127.0.0.1/', HOST],
  ['https:\\\\127.0.0.1/', HOST],
  [' https://127.0.0.1/ ', HOST],
  ['https://\n127.0.0.1/', HOST],
  ['https://127.0.0.1\\@example.com/', HOST],
  ['https://127.0.0.1#@example.com', HOST],
  ['https://127.0.0.1?@example.com', HOST],
  // Unspecified, private, link-local (cloud metadata) and other ranges, in several spellings.
  ['https://0/', HOST],
  ['https://00/', HOST],
  ['https://0x0/', HOST],
  ['https://0.0.0.0/', HOST],
  ['https://10.0.0.1/', HOST],
  ['https://012.0.0.1/', HOST],
  ['https://167772161/', HOST],
  ['https://0xa000001/', HOST],
  ['https://172.16.0.1/', HOST],
  ['https://172.31.255.255/', HOST],
  ['https://192.168.1.1/', HOST],
  ['https://3232235777/', HOST],
  ['https://0xc0a80101/', HOST],
  ['https://0300.0250.1.1/', HOST],
  ['https://192.168.257/', HOST],
  ['https://169.254.169.254/', HOST],
  ['https://2852039166/', HOST],
  ['https://0xa9fea9fe/', HOST],
  ['https://0251.0376.0251.0376/', HOST],
  ['https://169.254.43518/', HOST],
  ['https://100.64.0.1/', HOST],
  ['https://100.127.255.254/', HOST],
  ['https://224.0.0.1/', HOST],
  ['https://239.255.255.250/', HOST],
  ['https://255.255.255.255/', HOST],
  ['https://4294967295/', HOST],
  ['https://0xffffffff/', HOST],
  ['https://240.0.0.1/', HOST],
  ['https://192.0.2.1/', HOST],
  ['https://198.51.100.1/', HOST],
  ['https://203.0.113.1/', HOST],
  ['https://198.18.0.1/', HOST],
  ['https://192.0.0.8/', HOST],
  // IPv6 literals.
  ['https://[::1]/', HOST],
  ['https://[::1]:8443/', HOST],
  ['https://[0:0:0:0:0:0:0:1]/', HOST],
  ['https://[::]/', HOST],
  ['https://[::ffff:127.0.0.1]/', HOST],
  ['https://[::ffff:7f00:1]/', HOST],
  ['https://[::FFFF:7F00:0001]/', HOST],
  ['https://[0:0:0:0:0:ffff:127.0.0.1]/', HOST],
  ['https://[::ffff:10.0.0.1]/', HOST],
  ['https://[::ffff:169.254.169.254]/', HOST],
  ['https://[::ffff:a9fe:a9fe]/', HOST],
  ['https://[::ffff:0.0.0.0]/', HOST],
  ['https://[::127.0.0.1]/', HOST],
  ['https://[::ffff:0:127.0.0.1]/', HOST],
  ['https://[::2]/', HOST],
  ['https://[64:ff9b::127.0.0.1]/', HOST],
  ['https://[64:ff9b::a9fe:a9fe]/', HOST],
  ['https://[64:ff9b:1::8.8.8.8]/', HOST],
  ['https://[2002:7f00:1::]/', HOST],
  ['https://[2002:a9fe:a9fe::1]/', HOST],
  ['https://[2001::1]/', HOST],
  ['https://[2001:db8::1]/', HOST],
  ['https://[3fff::1]/', HOST],
  ['https://[fc00::1]/', HOST],
  ['https://[fd00:ec2::254]/', HOST],
  ['https://[fe80::1]/', HOST],
  ['https://[fec0::1]/', HOST],
  ['https://[ff02::1]/', HOST],
  ['https://[100::1]/', HOST],
  ['https://[2001:10::1]/', HOST],
  ['https://[2001:20::1]/', HOST],
  ['https://[2001:2::1]/', HOST],
  ['https://[5f00::1]/', HOST],
  ['https://[1::1]/', HOST],
  // Local names, trailing-dot and encoded spellings included.
  ['https://localhost/', HOST],
  ['https://LOCALHOST/', HOST],
  ['https://localhost./', HOST],
  ['https://localhost../', HOST],
  ['https://ｌｏｃａｌｈｏｓｔ/', HOST],
  ['https://loc%61lhost/', HOST],
  ['https://%6c%6f%63%61%6c%68%6f%73%74/', HOST],
  ['https://loc\talhost/', HOST],
  ['https://foo.localhost/', HOST],
  ['https://foo.localhost./', HOST],
  ['https://a.b.localhost/', HOST],
  ['https://localhost.localdomain/', HOST],
  ['https://db.localdomain./', HOST],
  ['https://printer.local/', HOST],
  ['https://printer.local./', HOST],
  ['https://PRINTER.LOCAL/', HOST],
  ['https://metadata.google.internal/', HOST],
  ['https://metadata.google.internal./', HOST],
  ['https://db.internal/', HOST],
  ['https://router.home.arpa/', HOST],
  ['https://router.home.arpa./', HOST],
  ['https://home.arpa/', HOST],
  ['https://intranet/', HOST],
  ['https://intranet./', HOST],
  ['https://metadata/', HOST],
  ['https://instance-data/', HOST],
  ['https://kubernetes/', HOST],
  ['https://lоcalhost/', HOST], // Cyrillic 'о': a single-label name after punycode
  ['https://example..com/', HOST],
  ['https://.example.com/', HOST],
];

describe('checkEndpointUrl: SSRF table', () => {
  for (const [raw, expected, opts = PROD] of TABLE) {
    const mode =
      opts === DEV ? '(dev)' : opts === LISTED ? '(ports 3000, 80)' : opts === UNLISTED ? '(no port)' : '';
    const label = `${JSON.stringify(raw.length > 80 ? `${raw.slice(0, 60)}…` : raw)} ${mode}`;
    test(`${label} -> ${expected}`, () => {
      const verdict = checkEndpointUrl(raw, opts);
      if (expected === 'ok') {
        assert.equal(verdict.ok, true, JSON.stringify(verdict));
      } else {
        assert.equal(verdict.ok, false, `accepted ${raw}`);
        if (!verdict.ok) {
          assert.equal(verdict.code, expected, verdict.message);
          assert.ok(verdict.message.length > 0);
        }
      }
    });
  }
});

test('the table is large enough to mean something', () => {
  assert.ok(TABLE.length >= 150, `only ${TABLE.length} rows`);
});

test('an accepted URL comes back normalized', () => {
  const verdict = checkEndpointUrl('https://EXAMPLE.com:443/a b?x=1', PROD);
  assert.ok(verdict.ok);
  assert.equal(verdict.url.href, 'https://example.com/a%20b?x=1');
});

test('the length limit is exactly 2048 characters, raw and normalized', () => {
  const base = 'https://example.com/';
  const exact = base + 'a'.repeat(MAX_ENDPOINT_URL_LENGTH - base.length);
  assert.equal(exact.length, 2048);
  assert.equal(checkEndpointUrl(exact, PROD).ok, true);
  assert.deepEqual(((v) => (v.ok ? 'ok' : v.code))(checkEndpointUrl(`${exact}a`, PROD)), 'invalid_url');
  // 700 spaces fit raw but become 2100 characters once percent-encoded.
  const expanding = `${base}${' '.repeat(700)}x`;
  assert.ok(expanding.length < 2048);
  const verdict = checkEndpointUrl(expanding, PROD);
  assert.equal(verdict.ok ? 'ok' : verdict.code, 'invalid_url');
});

test('an unlisted localhost port is refused with a message naming the setting and what is listed', () => {
  const unlisted = checkEndpointUrl('http://localhost:5432/', LISTED);
  assert.equal(unlisted.ok, false);
  if (!unlisted.ok) {
    assert.equal(unlisted.code, 'url_port_not_allowed');
    assert.equal(
      unlisted.message,
      'http://localhost is allowed only on the ports the operator lists in ACCOUNTING_WEBHOOK_LOCALHOST_PORTS (listed: 3000, 80); port 5432 is not.',
    );
  }
  const none = checkEndpointUrl('http://localhost/', UNLISTED);
  assert.equal(none.ok, false);
  if (!none.ok)
    assert.match(none.message, /ACCOUNTING_WEBHOOK_LOCALHOST_PORTS \(none is listed\); port 80 is not/);
});

test('the refusal message names the reason for an address', () => {
  const verdict = checkEndpointUrl('https://[::ffff:169.254.169.254]/', PROD);
  assert.equal(verdict.ok, false);
  if (!verdict.ok) assert.match(verdict.message, /link_local.*ipv4_mapped/);
});
