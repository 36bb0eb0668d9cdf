// Text the CLI prints from someone else's file (robots.txt values, sitemap values, messages
// that quote them) must not drive the terminal: ESC sequences, CR, C1 controls and bidi
// controls come out escaped, as `\x1b` or `\u202e`; JSON stays JSON that parses to the
// same values, with those characters as \u escapes.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { UNSAFE_TO_SHOW } from '../shared/printable.ts';
import { runCliForTest } from './test-support/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'waymark-terminal-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const ESC_CLEAR = '\x1b[2J';
const OSC_TITLE = '\x1b]0;pwned\x07';
const C1_CSI = '\u009b31m';
const RLO = '\u202e';

/** Fails on any control character other than the line feeds that end lines. */
function assertTerminalSafe(text: string, where: string): void {
  const unsafe = new RegExp(UNSAFE_TO_SHOW.source).exec(text.replaceAll('\n', ''));
  assert.equal(unsafe, null, `${where} has a raw U+${unsafe?.[0].codePointAt(0)?.toString(16)}`);
}

const robotsFile = join(dir, 'robots.txt');
writeFileSync(
  robotsFile,
  `User-agent: bot${ESC_CLEAR}\nDisallow: /private\nFoo${OSC_TITLE}: y\n${C1_CSI}Bar${RLO}: z\n`,
);

const sitemapFile = join(dir, 'sitemap.xml');
writeFileSync(
  sitemapFile,
  `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
<url><loc>https://example.com/a</loc><changefreq>${ESC_CLEAR}daily\r${RLO}</changefreq>
<news:news><news:publication><news:name>N${C1_CSI}</news:name><news:language>en</news:language></news:publication><news:publication_date>2024-01-01</news:publication_date><news:title>T${RLO}itle${OSC_TITLE}</news:title></news:news></url>
</urlset>
`,
);

describe('waymark robots lint', () => {
  test('messages quote values with their control characters escaped', async () => {
    const result = await runCliForTest(['robots', 'lint', robotsFile]);
    assertTerminalSafe(result.stdout, 'stdout');
    assert.match(result.stdout, /user-agent "bot\\x1b\[2J" is matched as its product token "bot"/);
    assert.ok(result.stdout.includes('"Foo\\x1b]0;pwned\\x07"'), result.stdout);
    assert.ok(result.stdout.includes('"\\x9b31mBar\\u202e"'), result.stdout);
  });

  test('--json escapes them too, and parses back to the same message', async () => {
    const result = await runCliForTest(['robots', 'lint', '--json', robotsFile]);
    assertTerminalSafe(result.stdout, 'stdout');
    const messages = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).message as string);
    assert.ok(messages.some((m) => m.includes(`"${C1_CSI}Bar${RLO}"`)));
    assert.ok(messages.some((m) => m.includes(`"Foo${OSC_TITLE}"`)));
  });
});

describe('waymark robots check', () => {
  test('table cells, JSON and the agent note are escaped', async () => {
    const odd = `${ESC_CLEAR}not-a-url${RLO}`;
    const table = await runCliForTest(['robots', 'check', robotsFile, '-a', `bot${RLO}x`, odd]);
    assertTerminalSafe(table.stdout, 'stdout');
    assertTerminalSafe(table.stderr, 'stderr');
    assert.ok(table.stdout.includes('\\x1b[2Jnot-a-url\\u202e'), table.stdout);
    assert.ok(table.stderr.includes('--agent "bot\\u202ex"'), table.stderr);
    const json = await runCliForTest(['robots', 'check', robotsFile, '-a', 'bot', '--json', odd]);
    assertTerminalSafe(json.stdout, 'stdout');
    assert.equal(JSON.parse(json.stdout).url, odd);
  });
});

describe('waymark sitemap parse', () => {
  test('problems on stderr are escaped (ESC, CR, bidi)', async () => {
    const result = await runCliForTest(['sitemap', 'parse', sitemapFile]);
    assert.equal(result.stdout, 'https://example.com/a\n');
    assertTerminalSafe(result.stderr, 'stderr');
    assert.ok(result.stderr.includes('changefreq "\\x1b[2Jdaily\\x0d\\u202e"'), result.stderr);
  });

  test('--json escapes C1 and bidi controls that JSON.stringify leaves raw', async () => {
    const result = await runCliForTest(['sitemap', 'parse', '--json', sitemapFile]);
    assertTerminalSafe(result.stdout, 'stdout');
    const entry = JSON.parse(result.stdout);
    assert.equal(entry.news.title, `T${RLO}itle${OSC_TITLE}`);
    assert.equal(entry.news.publication.name, `N${C1_CSI}`);
  });

  test('a plain-text sitemap line is quoted escaped', async () => {
    const result = await runCliForTest(
      ['sitemap', 'parse', '-'],
      `https://example.com/a\nno${ESC_CLEAR}url\n`,
    );
    assertTerminalSafe(result.stderr, 'stderr');
    assert.match(result.stderr, /<stdin>:2: warning: line "no\\x1b\[2Jurl" is not an absolute URL/);
  });
});

describe('waymark sitemap validate', () => {
  test('messages on stdout are escaped, as text and as JSON', async () => {
    const text = await runCliForTest(['sitemap', 'validate', sitemapFile]);
    assert.equal(text.code, 1);
    assertTerminalSafe(text.stdout, 'stdout');
    assert.ok(text.stdout.includes('changefreq "\\x1b[2Jdaily\\x0d\\u202e"'), text.stdout);
    const json = await runCliForTest(['sitemap', 'validate', '--json', sitemapFile]);
    assertTerminalSafe(json.stdout, 'stdout');
    const first = JSON.parse(json.stdout.split('\n')[0] ?? '');
    assert.ok(first.message.includes(`"${ESC_CLEAR}daily\r${RLO}"`), first.message);
  });
});

describe('file names the user gave, printed back', () => {
  test('sitemap write: the files it wrote are named escaped', async () => {
    const out = join(dir, `out${ESC_CLEAR}${RLO}`);
    const result = await runCliForTest(
      ['sitemap', 'write', '--base', 'https://example.com/', '--out', out],
      'https://example.com/\n',
    );
    assert.equal(result.code, 0, result.stderr);
    assertTerminalSafe(result.stdout, 'stdout');
    assert.match(result.stdout, /wrote .*out\\x1b\[2J\\u202e/);
  });
});
