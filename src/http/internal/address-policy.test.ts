import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockedAddressReason, isIpLiteral } from './address-policy.ts';

/** [address, the start of the reason it is refused, or null when it is public]. */
const CASES: readonly (readonly [string, string | null])[] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['172.32.0.1', null],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'link-local'],
  ['100.64.0.1', 'shared'],
  ['100.127.255.255', 'shared'],
  ['100.128.0.1', null],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  ['192.0.2.10', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.99', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['192.0.0.8', 'reserved'],
  ['8.8.8.8', null],
  ['93.184.215.14', null],
  ['1.1.1.1', null],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback, as IPv4-mapped'],
  ['::ffff:7f00:1', 'loopback, as IPv4-mapped'],
  ['[::ffff:a00:1]', 'private (RFC 1918), as IPv4-mapped'],
  ['::ffff:169.254.169.254', 'link-local, as IPv4-mapped'],
  ['::ffff:8.8.8.8', null],
  ['::127.0.0.1', 'reserved (IPv4-compatible'],
  ['64:ff9b::10.0.0.1', 'private (RFC 1918), as NAT64'],
  ['64:ff9b::8.8.8.8', null],
  ['2002:7f00:1::1', 'loopback, as 6to4'],
  ['2002:0808:0808::1', null],
  ['fc00::1', 'private (unique local'],
  ['fd12:3456:789a::1', 'private (unique local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf::1', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['100::1', 'reserved'],
  ['2001:db8::1', 'documentation'],
  ['2001::1', 'reserved (IETF'],
  ['3fff::1', 'documentation'],
  ['2606:4700:4700::1111', null],
  ['2a00:1450:4001::200e', null],
  ['example.com', 'not an IP address'],
  ['1.2.3', 'not an IP address'],
  ['256.1.1.1', 'not an IP address'],
  ['1::2::3', 'not an IP address'],
  ['1:2:3:4:5:6:7:8:9', 'not an IP address'],
  ['', 'not an IP address'],
];

for (const [address, expected] of CASES) {
  test(`${address || '(empty)'}: ${expected ?? 'public'}`, () => {
    const reason = blockedAddressReason(address);
    if (expected === null) assert.equal(reason, null);
    else assert.ok(reason?.startsWith(expected), `${address}: ${reason}`);
  });
}

test('isIpLiteral tells URL hostnames that are addresses from names', () => {
  assert.equal(isIpLiteral('127.0.0.1'), true);
  assert.equal(isIpLiteral('[::1]'), true);
  assert.equal(isIpLiteral('localhost'), false);
  assert.equal(isIpLiteral('example.com'), false);
  // The URL parser writes every IPv4 spelling as a dotted quad before the check sees it.
  assert.equal(new URL('http://2130706433/').hostname, '127.0.0.1');
  assert.equal(new URL('http://0x7f.1/').hostname, '127.0.0.1');
});
