// The Sitemap-line fast path (the URL package's plainHref, taken when it gives the value back
// unchanged) must never call a URL plain that URL.parse would write differently:
// seeded random URLs, mostly well-formed but with parts chosen to hit every rule (case, dots,
// IPv4-like and IDNA hosts, ports, credentials, escapes, chars the parser encodes).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../test-support/seeded-random.ts';
import { plainHref } from '../../url/internal/plain-http-url.ts';
import { parseRobots } from '../parse-robots.ts';

/** What the parser of Sitemap lines asks: the value is an href as the URL parser writes it. */
function isPlainHttpUrl(value: string): boolean {
  return plainHref(value)?.href === value;
}

// biome-ignore format: tables
const SCHEMES = ['https://', 'http://', 'HTTP://', 'ftp://', 'https:/', '//', 'https://user@'];
// biome-ignore format: tables
const LABELS = ['a', 'example', 'com', 'b1', 'x-y', '9z'];
// biome-ignore format: tables
const ODD_HOST_PARTS = ['xn--', 'xn--nxasmq6b', '1', '0x1f', '127', '-', '', 'B', 'é', '_', ':80', ':443', '%41'];
// biome-ignore format: tables
const SAFE_PATH_PARTS = ['/', 'a', 'Z', '9', 'sitemap.xml', '-', '_', '~', '!', '$', '&', '(', ')', '*', '+', ',', ';', '=', ':', '@', '%41', '?', '.'];
// biome-ignore format: tables
const ODD_PATH_PARTS = ['..', '/.', '%2e', '%2E', '%', '%zz', '#', ' ', "'", '"', '<', '>', '`', '{', '}', '|', '^', '[', ']', '\\', '\t', '\n', 'é', '\u0000'];

test('isPlainHttpUrl(value) implies URL.parse(value).href === value, with http(s)', () => {
  const next = seededRandom(9);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  let plain = 0;
  for (let round = 0; round < 100_000; round++) {
    let url = next() < 0.8 ? 'https://' : pick(SCHEMES);
    for (let n = 1 + Math.floor(next() * 3); n > 0; n--) {
      url += next() < 0.9 ? pick(LABELS) : pick(ODD_HOST_PARTS);
      if (n > 1) url += '.';
    }
    if (next() < 0.9) url += '/';
    for (let n = Math.floor(next() * 8); n > 0; n--) {
      url += next() < 0.93 ? pick(SAFE_PATH_PARTS) : pick(ODD_PATH_PARTS);
    }
    if (!isPlainHttpUrl(url)) continue;
    plain++;
    const parsed = URL.parse(url);
    assert.equal(parsed?.href, url, url);
    assert.ok(parsed.protocol === 'http:' || parsed.protocol === 'https:', url);
  }
  // The generator must reach the fast path often, or this proves nothing.
  assert.ok(plain > 10_000, `only ${plain} plain URLs`);
});

test('real sitemap URLs take the fast path; unusual ones go to URL.parse', () => {
  for (const url of [
    'https://www.example.com/sitemap.xml',
    'http://example.com/sitemaps/sitemap-index.xml?page=2&x=%41',
    'https://a-b.example.co.uk/x/y_z~1.xml.gz',
    'https://1.2.3.4/',
  ]) {
    assert.equal(isPlainHttpUrl(url), true, url);
  }
  for (const url of [
    'https://Example.com/',
    'https://a.com',
    'https://a.com:443/',
    'https://a.com/./x',
    'https://a.com/%2e%2E/x',
    'https://xn--nxasmq6b.com/',
  ]) {
    assert.equal(isPlainHttpUrl(url), false, url);
  }
});

// biome-ignore format: tables
const BASES = ['https://a.example/robots.txt', 'http://b.example:8080/robots.txt', 'https://1.2.3.4/robots.txt', 'https://A.example/robots.txt', 'https://xn--nxasmq6b.com/robots.txt', 'https://u@a.example/robots.txt', 'not a url', 'file:///robots.txt'];
// biome-ignore format: tables
const RELATIVE_STARTS = ['/', '/', '/', '//', '/\\', '/.', '/..', '/%2e', 'sitemap.xml', './', '?q', 'https://c.example/'];

test('Sitemap: /path against the robots.txt URL reads as URL.parse(value, base) does', () => {
  const next = seededRandom(10);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  // Chars that end or cut a value (`#`, blanks, NUL, line ends) are left out: the line reader's.
  const parts = [...SAFE_PATH_PARTS, ...ODD_PATH_PARTS.filter((p) => !/[#\s\0]/.test(p))];
  let resolved = 0;
  for (let round = 0; round < 30_000; round++) {
    const base = pick(BASES);
    let value = pick(RELATIVE_STARTS);
    for (let n = Math.floor(next() * 6); n > 0; n--) value += pick(parts);
    const robots = parseRobots(`Sitemap: ${value}\n`, { url: base });
    const absolute = URL.parse(value);
    const url = absolute ?? (URL.canParse(base) ? URL.parse(value, base) : null);
    const http = url !== null && (url.protocol === 'http:' || url.protocol === 'https:');
    const where = `${value} against ${base}`;
    assert.deepEqual(robots.sitemaps, http ? [url.href] : [], where);
    const relative = robots.diagnostics.some((d) => d.code === 'relative-sitemap-url');
    assert.equal(relative, http && absolute === null, where);
    if (relative) {
      resolved++;
      const message = robots.diagnostics.find((d) => d.code === 'relative-sitemap-url')?.message;
      assert.equal(message, `sitemap "${value}" is relative; read as ${url?.href}`, where);
    }
  }
  assert.ok(resolved > 5_000, `only ${resolved} relative sitemaps resolved`);
});
