import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { googleReferenceAllowed } from '../test-support/google-reference-matcher.ts';
import { parseRobots } from './index.ts';

interface DiagnosticCase {
  name: string;
  robotstxt?: string;
  robotstxtBase64?: string;
  url?: string;
  expect: [number, string, string][];
}

/** `{{N c}}` in a body stands for N copies of c, so long lines stay readable in the table. */
function expand(body: string): string {
  return body.replace(/\{\{(\d+) (.)\}\}/g, (_, n: string, c: string) => c.repeat(Number(n)));
}

describe('diagnostics', () => {
  const { cases } = JSON.parse(
    readFileSync(new URL('./testdata/diagnostics.json', import.meta.url), 'utf8'),
  ) as { cases: DiagnosticCase[] };
  for (const c of cases) {
    test(c.name, () => {
      const input =
        c.robotstxtBase64 !== undefined
          ? Buffer.from(c.robotstxtBase64, 'base64')
          : expand(c.robotstxt ?? '');
      const robots = parseRobots(input, c.url === undefined ? {} : { url: c.url });
      const got = robots.diagnostics.map((d) => [d.line, d.severity, d.code]);
      assert.deepEqual(got, c.expect);
      for (const d of robots.diagnostics) {
        assert.ok(d.message.length > 0 && d.column >= 1);
      }
    });
  }
});

describe('parseRobots', () => {
  test('a UTF-16 file decides as Google reads its bytes: no rule, everything allowed', () => {
    const text = 'User-agent: *\r\nDisallow: /private/\r\nUser-agent: GPTBot\r\nDisallow: /\r\n';
    const le = Buffer.from(text, 'utf16le');
    const be = Buffer.from(le).swap16();
    const files = [le, be].flatMap((bytes) => {
      const bom = Buffer.from(bytes === le ? [0xff, 0xfe] : [0xfe, 0xff]);
      return [bytes, Buffer.concat([bom, bytes])];
    });
    for (const bytes of files) {
      const robots = parseRobots(bytes);
      assert.deepEqual(robots.groups, []);
      for (const [agent, url] of [
        ['Googlebot', 'https://example.com/private/x'],
        ['GPTBot', 'https://example.com/'],
      ] as const) {
        assert.equal(robots.isAllowed(url, agent), true);
        assert.equal(googleReferenceAllowed(bytes, agent, url), true);
      }
    }
  });

  test('reads bytes past the size cap as absent, keeping only whole lines', () => {
    const body = `User-agent: *\nDisallow: /a\nDisallow: /private-folder\n`;
    const cap = body.indexOf('/private-folder') + 4; // mid-line: "Disallow: /pri"
    const robots = parseRobots(body, { maxBytes: cap });
    assert.deepEqual(
      robots.groups[0]?.rules.map((r) => r.pattern),
      ['/a'],
    );
    assert.equal(robots.isAllowed('/print', 'bot'), true);
    assert.equal(robots.diagnostics[0]?.code, 'size-limit');
  });

  test('applies the 500 KiB default cap', () => {
    const filler = `# ${'x'.repeat(1000)}\n`.repeat(520);
    const robots = parseRobots(`User-agent: *\n${filler}Disallow: /\n`);
    assert.equal(robots.isAllowed('/anything', 'bot'), true);
    assert.equal(robots.diagnostics[0]?.code, 'size-limit');
  });

  test('resolves sitemaps against the robots.txt URL and drops duplicates', () => {
    const robots = parseRobots(
      'Sitemap: /sitemap.xml\nsitemap: https://example.com/sitemap.xml\nSitemap: https://cdn.example.net/s.xml.gz\n',
      { url: 'https://example.com/robots.txt' },
    );
    assert.deepEqual(robots.sitemaps, [
      'https://example.com/sitemap.xml',
      'https://cdn.example.net/s.xml.gz',
    ]);
  });

  test('groups: duplicate user-agent groups are kept apart but merged when matching', () => {
    const robots = parseRobots(
      'User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /y\n\nUser-agent: A\nDisallow: /z\n',
    );
    assert.equal(robots.groups.length, 3);
    assert.equal(robots.isAllowed('/x', 'a'), false);
    assert.equal(robots.isAllowed('/z', 'a'), false);
    assert.equal(robots.isAllowed('/y', 'a'), true);
  });

  test('a group runs until a user-agent line follows its rules', () => {
    const robots = parseRobots(
      'User-agent: a\nUser-agent: b\nCrawl-delay: 4\nSitemap: https://e.example/s.xml\nDisallow: /\nUser-agent: c\nAllow: /\n',
    );
    assert.deepEqual(
      robots.groups.map((g) => g.userAgents),
      [['a', 'b'], ['c']],
    );
    assert.equal(robots.groups[0]?.crawlDelay, 4);
  });

  test('never throws on hostile input', () => {
    const inputs: (string | Uint8Array)[] = [
      '',
      '\uFEFF',
      '\0\0\0',
      new Uint8Array([0xef, 0xbb]),
      new Uint8Array([0xff, 0xfe, 0x00, 0x55]),
      ':::\n#\n\r\r\n\n',
      `User-agent: *\nDisallow: ${'*'.repeat(20000)}\n`,
      'User-agent: *\nDisallow: %\nDisallow: %z\nDisallow: %4\n',
    ];
    for (const input of inputs) {
      const robots = parseRobots(input);
      assert.equal(typeof robots.isAllowed('/', 'bot'), 'boolean');
    }
  });
});

describe('input strings', () => {
  // A string is read as it is, whatever V8 made of it (a rope built by concatenation, a slice
  // past a BOM), and a noncharacter such as U+FFFF is a char like any other.
  test('a text with U+FFFF is read whole', () => {
    const robots = parseRobots('\uFEFFUser-agent: *\nDisallow: /a\uFFFFb\nAllow: /c\n');
    assert.deepEqual(
      robots.groups[0]?.rules.map((rule) => rule.pattern),
      ['/a%EF%BF%BFb', '/c'],
    );
    assert.equal(robots.isAllowed('/a%EF%BF%BFb', 'x'), false);
  });

  test('a text built by concatenation reads as the same text decoded from bytes', () => {
    let text = '\uFEFF';
    for (let i = 0; i < 50; i++) text += `User-agent: bot${'ab'[i % 2]}\nDisallow: /p${i}/é\n`;
    const fromBytes = parseRobots(new TextEncoder().encode(text));
    assert.deepEqual(parseRobots(text), fromBytes);
    assert.equal(parseRobots(text).isAllowed('/p3/%C3%A9', 'botb'), false);
  });
});
