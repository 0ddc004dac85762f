import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type AddressRefusalReason,
  checkAddress,
  type Ipv4Embedding,
  isPublicUnicast,
} from '../../src/webhooks/address-policy.ts';

// [address text, expected]: 'ok' (optionally with the address to connect to) or a refusal reason
// (optionally with the IPv6 form the IPv4 address was embedded in).
type Expected = 'ok' | { ok: string } | AddressRefusalReason | [AddressRefusalReason, Ipv4Embedding];

const TABLE: ReadonlyArray<readonly [string, Expected]> = [
  // Public IPv4, including the first and last addresses around every refused range.
  ['8.8.8.8', 'ok'],
  ['1.1.1.1', 'ok'],
  ['1.0.0.0', 'ok'],
  ['93.184.216.34', 'ok'],
  ['9.255.255.255', 'ok'],
  ['11.0.0.0', 'ok'],
  ['100.63.255.255', 'ok'],
  ['100.128.0.0', 'ok'],
  ['126.255.255.255', 'ok'],
  ['128.0.0.0', 'ok'],
  ['169.253.255.255', 'ok'],
  ['169.255.0.0', 'ok'],
  ['172.15.255.255', 'ok'],
  ['172.32.0.0', 'ok'],
  ['192.0.1.255', 'ok'],
  ['192.0.3.0', 'ok'],
  ['192.167.255.255', 'ok'],
  ['192.169.0.0', 'ok'],
  ['198.17.255.255', 'ok'],
  ['198.20.0.0', 'ok'],
  ['198.51.99.255', 'ok'],
  ['198.51.101.0', 'ok'],
  ['203.0.112.255', 'ok'],
  ['203.0.114.0', 'ok'],
  ['223.255.255.255', 'ok'],
  // Refused IPv4 ranges, edges included.
  ['0.0.0.0', 'unspecified'],
  ['0.255.255.255', 'unspecified'],
  ['10.0.0.0', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.0', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['192.168.255.255', 'private'],
  ['100.64.0.0', 'carrier_grade_nat'],
  ['100.127.255.255', 'carrier_grade_nat'],
  ['127.0.0.0', 'loopback'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.0.0', 'link_local'],
  ['169.254.169.254', 'link_local'],
  ['192.0.0.1', 'ietf_protocol_assignment'],
  ['192.0.0.170', 'ietf_protocol_assignment'],
  ['192.0.2.1', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.255', 'documentation'],
  ['192.88.99.1', 'reserved'],
  ['198.18.0.0', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['254.255.255.255', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['192.175.48.1', 'special_purpose'], // AS112
  ['192.52.193.1', 'special_purpose'], // AMT
  // Only canonical text is judged: every other spelling of an address is refused outright.
  ['0177.0.0.1', 'not_an_ip_address'],
  ['0x7f.0.0.1', 'not_an_ip_address'],
  ['0x7f000001', 'not_an_ip_address'],
  ['2130706433', 'not_an_ip_address'],
  ['134744072', 'not_an_ip_address'],
  ['127.1', 'not_an_ip_address'],
  ['127.0.1', 'not_an_ip_address'],
  ['017700000001', 'not_an_ip_address'],
  ['127.000.000.001', 'not_an_ip_address'],
  ['08.8.8.8', 'not_an_ip_address'],
  ['8.8.8.08', 'not_an_ip_address'],
  [' 8.8.8.8', 'not_an_ip_address'],
  ['8.8.8.8 ', 'not_an_ip_address'],
  ['8.8.8.8.', 'not_an_ip_address'],
  ['1.2.3.256', 'not_an_ip_address'],
  ['[2606:4700::1111]', 'not_an_ip_address'],
  ['127.0.0.1:80', 'not_an_ip_address'],
  ['127.0.0.0/8', 'not_an_ip_address'],
  ['localhost', 'not_an_ip_address'],
  ['example.com', 'not_an_ip_address'],
  ['', 'not_an_ip_address'],
  ['fe80::1%eth0', 'zone_id'],
  ['2606:4700::1111%1', 'zone_id'],
  // Public IPv6, and IPv4 embeddings whose IPv4 address is public.
  ['2606:4700:4700::1111', 'ok'],
  ['2001:4860:4860::8888', 'ok'],
  ['2a00:1450:4001:82a::200e', 'ok'],
  ['2620:0:2d0:200::7', 'ok'],
  ['2001:200::1', 'ok'],
  ['3fff:1000::1', 'ok'],
  ['2606:4700:4700:0000:0000:0000:0000:1111', { ok: '2606:4700:4700::1111' }],
  ['2606:4700:4700::1111'.toUpperCase(), { ok: '2606:4700:4700::1111' }],
  ['::ffff:8.8.8.8', { ok: '8.8.8.8' }],
  ['::ffff:808:808', { ok: '8.8.8.8' }],
  ['64:ff9b::8.8.8.8', { ok: '64:ff9b::808:808' }],
  ['2002:808:808::1', { ok: '2002:808:808::1' }],
  // ipaddr.js alone would read '::8.8.8.8' as IPv4-mapped; the OS reads it as IPv4-compatible.
  ['::8.8.8.8', { ok: '::808:808' }],
  ['::ffff:0:8.8.8.8', { ok: '::ffff:0:808:808' }],
  // Refused IPv6 ranges.
  ['::', 'unspecified'],
  ['0:0:0:0:0:0:0:0', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::0001', 'loopback'],
  ['::ffff:127.0.0.1', ['loopback', 'ipv4_mapped']],
  ['::ffff:7f00:1', ['loopback', 'ipv4_mapped']],
  ['::FFFF:7F00:0001', ['loopback', 'ipv4_mapped']],
  ['0:0:0:0:0:ffff:127.0.0.1', ['loopback', 'ipv4_mapped']],
  ['::ffff:10.0.0.1', ['private', 'ipv4_mapped']],
  ['::ffff:a9fe:a9fe', ['link_local', 'ipv4_mapped']],
  ['::ffff:0.0.0.0', ['unspecified', 'ipv4_mapped']],
  ['::ffff:255.255.255.255', ['broadcast', 'ipv4_mapped']],
  ['::ffff:100.64.0.1', ['carrier_grade_nat', 'ipv4_mapped']],
  ['::ffff:0:127.0.0.1', ['loopback', 'ipv4_translated']],
  ['::127.0.0.1', ['loopback', 'ipv4_compatible']],
  ['::7f00:1', ['loopback', 'ipv4_compatible']],
  ['::a00:1', ['private', 'ipv4_compatible']],
  ['::2', ['unspecified', 'ipv4_compatible']],
  ['64:ff9b::127.0.0.1', ['loopback', 'nat64']],
  ['64:ff9b::a9fe:a9fe', ['link_local', 'nat64']],
  ['64:ff9b::c0a8:101', ['private', 'nat64']],
  ['64:ff9b:1::8.8.8.8', 'nat64_local_use'],
  ['64:ff9b:1:ffff::1', 'nat64_local_use'],
  ['2002:7f00:1::', ['loopback', '6to4']],
  ['2002:a00:1::1', ['private', '6to4']],
  ['2002:c0a8:101::1', ['private', '6to4']],
  ['2002:a9fe:a9fe::1', ['link_local', '6to4']],
  ['2002::1', ['unspecified', '6to4']],
  ['100::1', 'discard_only'],
  ['100::ffff:ffff:ffff:ffff', 'discard_only'],
  ['2001:db8::1', 'documentation'],
  ['2001:db8:ffff:ffff::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['2001::1', 'teredo'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  ['2001:2::1', 'benchmarking'],
  ['2001:10::1', 'orchid'],
  ['2001:20::1', 'orchid'],
  ['2001:1::1', 'ietf_protocol_assignment'],
  ['2001:3::1', 'ietf_protocol_assignment'],
  ['2001:4:112::1', 'ietf_protocol_assignment'],
  ['2001:30::1', 'ietf_protocol_assignment'],
  ['2001:1ff:ffff::1', 'ietf_protocol_assignment'],
  ['fc00::1', 'unique_local'],
  ['fd00:ec2::254', 'unique_local'],
  ['fdff:ffff::1', 'unique_local'],
  ['fe80::1', 'link_local'],
  ['febf:ffff::1', 'link_local'],
  ['fec0::1', 'site_local'],
  ['feff::1', 'site_local'],
  ['ff02::1', 'multicast'],
  ['ff05::1:3', 'multicast'],
  ['ff0e::1', 'multicast'],
  ['5f00::1', 'segment_routing'],
  ['1::1', 'not_global_unicast'],
  ['100:0:0:1::1', 'not_global_unicast'],
  ['4000::1', 'not_global_unicast'],
  ['8000::1', 'not_global_unicast'],
  ['e000::1', 'not_global_unicast'],
  ['fb00::1', 'not_global_unicast'],
  ['2620:4f:8000::1', 'special_purpose'], // AS112 over IPv6
];

describe('checkAddress: SSRF table', () => {
  for (const [input, expected] of TABLE) {
    test(`${JSON.stringify(input)} -> ${JSON.stringify(expected)}`, () => {
      const verdict = checkAddress(input);
      if (expected === 'ok') assert.equal(verdict.ok, true, JSON.stringify(verdict));
      else if (Array.isArray(expected)) {
        assert.deepEqual(verdict, { ok: false, reason: expected[0], embedding: expected[1] });
      } else if (typeof expected === 'object') assert.deepEqual(verdict, { ok: true, address: expected.ok });
      else assert.deepEqual(verdict, { ok: false, reason: expected });
    });
  }
});

test('isPublicUnicast agrees with checkAddress on every row of the table', () => {
  for (const [input] of TABLE) assert.equal(isPublicUnicast(input), checkAddress(input).ok, input);
});

test('the table is large enough to mean something', () => {
  assert.ok(TABLE.length >= 150, `only ${TABLE.length} rows`);
});
