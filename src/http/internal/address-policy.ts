// Which IP addresses a fetch that must stay on the public internet may connect to. The
// ranges are IANA's special-purpose registries (RFC 6890 and its updates): everything that
// is not globally reachable unicast is refused. IPv6 is an allowlist (global unicast
// 2000::/3 only, minus its special blocks), so a new or forgotten special range is refused
// rather than let through; addresses that carry an IPv4 address (IPv4-mapped, NAT64, 6to4)
// are judged by the IPv4 address they carry.

/** An IPv4 range: the first address as a 32-bit number, the prefix length, and why. */
type V4Range = readonly [start: number, bits: number, kind: string];

const V4_BLOCKED: readonly V4Range[] = [
  [v4(0, 0, 0, 0), 8, 'unspecified ("this network", 0.0.0.0/8)'],
  [v4(10, 0, 0, 0), 8, 'private (RFC 1918)'],
  [v4(100, 64, 0, 0), 10, 'shared (carrier-grade NAT, 100.64.0.0/10)'],
  [v4(127, 0, 0, 0), 8, 'loopback'],
  [v4(169, 254, 0, 0), 16, 'link-local'],
  [v4(172, 16, 0, 0), 12, 'private (RFC 1918)'],
  [v4(192, 0, 0, 0), 24, 'reserved (IETF protocol assignments)'],
  [v4(192, 0, 2, 0), 24, 'documentation (TEST-NET-1)'],
  [v4(192, 88, 99, 0), 24, 'reserved (6to4 relay anycast)'],
  [v4(192, 168, 0, 0), 16, 'private (RFC 1918)'],
  [v4(198, 18, 0, 0), 15, 'benchmarking'],
  [v4(198, 51, 100, 0), 24, 'documentation (TEST-NET-2)'],
  [v4(203, 0, 113, 0), 24, 'documentation (TEST-NET-3)'],
  [v4(224, 0, 0, 0), 4, 'multicast'],
  [v4(240, 0, 0, 0), 4, 'reserved (240.0.0.0/4, broadcast)'],
];

/**
 * Why `address` (an IPv4 or IPv6 literal, brackets and an IPv6 zone allowed) is not a public
 * address, or null when it is. Text that is not an IP address is refused too.
 *
 * @example
 * ```ts
 * blockedAddressReason('127.0.0.1'); // 'loopback'
 * blockedAddressReason('::ffff:10.0.0.1'); // 'private (RFC 1918), as IPv4-mapped IPv6'
 * blockedAddressReason('93.184.215.14'); // null
 * ```
 */
export function blockedAddressReason(address: string): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const four = parseIpv4(bare);
  if (four !== null) return v4Reason(four);
  const six = parseIpv6(bare);
  if (six === null) return 'not an IP address';
  return v6Reason(six);
}

/** True when `host` (a URL's hostname) is an IP literal rather than a name. */
export function isIpLiteral(host: string): boolean {
  if (host.startsWith('[')) return true;
  return parseIpv4(host) !== null;
}

function v4Reason(address: number): string | null {
  for (const [start, bits, kind] of V4_BLOCKED) {
    if (inPrefix(address, start, bits)) return kind;
  }
  return null;
}

/** An IPv6 address as eight 16-bit groups. */
type Groups = readonly number[];

function v6Reason(g: Groups): string | null {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, h = 0, i = 0] = g;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  const tail = ((h << 16) | i) >>> 0;
  if (zeroTo(8)) return 'unspecified (::)';
  if (zeroTo(7) && i === 1) return 'loopback (::1)';
  if (zeroTo(5) && f === 0xffff) return carried(v4Reason(tail), 'IPv4-mapped IPv6');
  if (zeroTo(6)) return 'reserved (IPv4-compatible IPv6, ::/96)';
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) {
    return carried(v4Reason(tail), 'NAT64 (64:ff9b::/96)');
  }
  if (a === 0x2002) return carried(v4Reason(((b << 16) | c) >>> 0), '6to4 (2002::/16)');
  if ((a & 0xe000) !== 0x2000) return v6NonGlobalKind(a);
  if (a === 0x2001 && b < 0x200) return 'reserved (IETF protocol assignments, 2001::/23)';
  if (a === 0x2001 && b === 0xdb8) return 'documentation (2001:db8::/32)';
  if (a === 0x3fff && b < 0x1000) return 'documentation (3fff::/20)';
  return null;
}

/** Names the common non-global IPv6 ranges; the rest outside 2000::/3 is "reserved". */
function v6NonGlobalKind(first: number): string {
  if ((first & 0xfe00) === 0xfc00) return 'private (unique local, fc00::/7)';
  if ((first & 0xffc0) === 0xfe80) return 'link-local (fe80::/10)';
  if ((first & 0xffc0) === 0xfec0) return 'site-local (fec0::/10, deprecated)';
  if ((first & 0xff00) === 0xff00) return 'multicast (ff00::/8)';
  return 'reserved (not global unicast, outside 2000::/3)';
}

/** The reason for an IPv4 address carried in an IPv6 one, naming the carrier. */
function carried(reason: string | null, carrier: string): string | null {
  return reason === null ? null : `${reason}, as ${carrier}`;
}

function inPrefix(address: number, start: number, bits: number): boolean {
  if (bits === 0) return true;
  const mask = bits === 32 ? 0xffffffff : (~0 << (32 - bits)) >>> 0;
  return (address & mask) >>> 0 === start;
}

function v4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/** Dotted-quad decimal, as resolvers return it and the URL parser writes it; else null. */
function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

/** An IPv6 address (with `::`, an IPv4 tail or a `%zone`) as eight groups; else null. */
function parseIpv6(text: string): Groups | null {
  const percent = text.indexOf('%');
  const address = percent < 0 ? text : text.slice(0, percent);
  if (!/^[0-9a-fA-F:.]+$/.test(address)) return null;
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0] ?? '');
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  if (head === null || tail === null) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/** Colon-separated groups, the last of which may be a dotted IPv4 address (two groups). */
function groupsOf(text: string): number[] | null {
  if (text === '') return [];
  const out: number[] = [];
  const parts = text.split(':');
  for (const [index, part] of parts.entries()) {
    if (index === parts.length - 1 && part.includes('.')) {
      const four = parseIpv4(part);
      if (four === null) return null;
      out.push(four >>> 16, four & 0xffff);
    } else if (/^[0-9a-fA-F]{1,4}$/.test(part)) {
      out.push(Number.parseInt(part, 16));
    } else {
      return null;
    }
  }
  return out;
}
