// Which IP addresses a webhook delivery may connect to: global unicast only.
//
// The tables are explicit (rather than relying on ipaddr.js range names alone) so that every
// refusal has a stable reason and a reviewer can check them against the IANA special-purpose
// registries. ipaddr.js still serves as a catch-all: anything it does not call 'unicast' is refused.
import { isIP } from 'node:net';
import type { IPv4, IPv6 } from 'ipaddr.js';
import ipaddr from 'ipaddr.js';

/** Why an address is not a public unicast address. */
export type AddressRefusalReason =
  | 'not_an_ip_address' // only canonical dotted-quad IPv4 and IPv6 text is judged; other spellings are refused
  | 'zone_id' // fe80::1%eth0: scoped to a local interface
  | 'unspecified' // 0.0.0.0/8, ::
  | 'loopback'
  | 'private' // RFC 1918
  | 'carrier_grade_nat' // 100.64.0.0/10
  | 'link_local'
  | 'ietf_protocol_assignment' // 192.0.0.0/24, 2001::/23 (remainder)
  | 'documentation'
  | 'benchmarking'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'unique_local' // fc00::/7
  | 'site_local' // fec0::/10, deprecated but still routed inside some networks
  | 'nat64_local_use' // 64:ff9b:1::/48: the embedding depends on local configuration, so it cannot be judged
  | 'teredo' // 2001::/32: tunnels to an IPv4 address we cannot judge reliably
  | 'orchid'
  | 'discard_only' // 100::/64
  | 'segment_routing'
  | 'not_global_unicast' // outside 2000::/3
  | 'special_purpose'; // any other range ipaddr.js does not call unicast (AS112, AMT, ...)

/** How an IPv4 address was embedded in an IPv6 one; the embedded address is what gets judged. */
export type Ipv4Embedding = 'ipv4_mapped' | 'ipv4_translated' | 'ipv4_compatible' | 'nat64' | '6to4';

export type AddressVerdict =
  | { ok: true; address: string }
  | { ok: false; reason: AddressRefusalReason; embedding?: Ipv4Embedding };

type Rule<R> = { net: [IPv4 | IPv6, number]; result: R };

function rules<R>(entries: ReadonlyArray<readonly [string, R]>): Rule<R>[] {
  return entries.map(([cidr, result]) => ({ net: ipaddr.parseCIDR(cidr), result }));
}

// Order matters: the first match wins, so narrower ranges come before the ranges containing them.
const V4_RULES = rules<AddressRefusalReason>([
  ['255.255.255.255/32', 'broadcast'],
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['172.16.0.0/12', 'private'],
  ['192.168.0.0/16', 'private'],
  ['100.64.0.0/10', 'carrier_grade_nat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link_local'],
  ['192.0.0.0/24', 'ietf_protocol_assignment'],
  ['192.0.2.0/24', 'documentation'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['192.88.99.0/24', 'reserved'], // former 6to4 relay anycast (RFC 7526)
  ['198.18.0.0/15', 'benchmarking'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
]);

type V6Result = AddressRefusalReason | { embedding: Ipv4Embedding };

const V6_RULES = rules<V6Result>([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::ffff:0:0/96', { embedding: 'ipv4_mapped' }],
  ['::ffff:0:0:0/96', { embedding: 'ipv4_translated' }],
  ['::/96', { embedding: 'ipv4_compatible' }],
  ['64:ff9b::/96', { embedding: 'nat64' }],
  ['64:ff9b:1::/48', 'nat64_local_use'],
  ['100::/64', 'discard_only'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
  ['2001::/32', 'teredo'],
  ['2001:2::/48', 'benchmarking'],
  ['2001:10::/28', 'orchid'],
  ['2001:20::/28', 'orchid'],
  ['2001::/23', 'ietf_protocol_assignment'],
  ['2002::/16', { embedding: '6to4' }],
  ['fc00::/7', 'unique_local'],
  ['fe80::/10', 'link_local'],
  ['fec0::/10', 'site_local'],
  ['ff00::/8', 'multicast'],
  ['5f00::/16', 'segment_routing'],
]);

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

function firstMatch<R>(addr: IPv4 | IPv6, table: Rule<R>[]): R | undefined {
  return table.find((rule) => addr.kind() === rule.net[0].kind() && addr.match(rule.net))?.result;
}

function judgeV4(addr: IPv4): AddressVerdict {
  const reason = firstMatch(addr, V4_RULES);
  if (reason !== undefined) return { ok: false, reason };
  if (addr.range() !== 'unicast') return { ok: false, reason: 'special_purpose' };
  return { ok: true, address: addr.toString() };
}

function embeddedV4(addr: IPv6, embedding: Ipv4Embedding): IPv4 {
  const bytes = addr.toByteArray();
  // 6to4 carries the IPv4 address in bits 16..47; every other form in the last 32 bits.
  const start = embedding === '6to4' ? 2 : 12;
  return new ipaddr.IPv4(bytes.slice(start, start + 4));
}

function judgeV6(addr: IPv6): AddressVerdict {
  const result = firstMatch(addr, V6_RULES);
  if (typeof result === 'string') return { ok: false, reason: result };
  if (result !== undefined) {
    const inner = judgeV4(embeddedV4(addr, result.embedding));
    if (!inner.ok) return { ...inner, embedding: result.embedding };
    // A mapped address reaches the IPv4 host itself, so connect to the plain IPv4 form.
    return result.embedding === 'ipv4_mapped' ? inner : { ok: true, address: addr.toString() };
  }
  if (!addr.match(GLOBAL_UNICAST_V6)) return { ok: false, reason: 'not_global_unicast' };
  if (addr.range() !== 'unicast') return { ok: false, reason: 'special_purpose' };
  return { ok: true, address: addr.toString() };
}

/**
 * Judges one IP address given as text. Only the canonical spellings `net.isIP` accepts are judged
 * (dotted-quad IPv4, IPv6 with optional dotted tail); octal, hex, short or bracketed forms and zone
 * ids are refused, because the caller must connect to exactly the text that was judged.
 * On success `address` is the canonical form to connect to.
 */
export function checkAddress(ip: string): AddressVerdict {
  const family = isIP(ip);
  if (family === 0) return { ok: false, reason: 'not_an_ip_address' };
  if (ip.includes('%')) return { ok: false, reason: 'zone_id' };
  return family === 4 ? judgeV4(ipaddr.IPv4.parse(ip)) : judgeV6(ipaddr.IPv6.parse(hexOnlyV6(ip)));
}

// ipaddr.js 2.5 reads a dotted tail after '::' as IPv4-mapped ('::8.8.8.8' becomes ::ffff:808:808),
// while the operating system reads it as IPv4-compatible (::808:808). Rewriting the text through the
// standard WHATWG IPv6 serializer first leaves no dotted tail for ipaddr.js to misread.
function hexOnlyV6(ip: string): string {
  return new URL(`http://[${ip}]/`).hostname.slice(1, -1);
}

/** True when `ip` is a global unicast address a webhook may be delivered to. */
export function isPublicUnicast(ip: string): boolean {
  return checkAddress(ip).ok;
}
