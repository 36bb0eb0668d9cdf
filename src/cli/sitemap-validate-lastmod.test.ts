// `waymark sitemap validate` warns about lastmod values engines distrust, as text and
// --json, without changing its exit status: warnings never fail a valid file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../http/test-support/test-server.ts';
import { runCliForTest } from './test-support/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'waymark-validate-lastmod-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function urlset(lastmods: readonly (string | null)[], extra = ''): string {
  const urls = lastmods.map(
    (lastmod, i) =>
      `<url><loc>https://example.com/${i}</loc>${lastmod === null ? '' : `<lastmod>${lastmod}</lastmod>`}${extra}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

let files = 0;
function sitemapFile(xml: string, mtime?: Date): string {
  const path = join(dir, `sitemap-${files++}.xml`);
  writeFileSync(path, xml);
  if (mtime !== undefined) utimesSync(path, mtime, mtime);
  return path;
}

const GENERATED = new Date('2026-02-01T06:00:00Z');

/** [name, lastmods, file mtime, exit code, codes reported (with severity)]. */
const CASES: [string, (string | null)[], Date | undefined, number, string[]][] = [
  [
    'good values: nothing to say',
    ['2026-01-01T10:00:00Z', '2025-12-01T08:30:00+01:00', null],
    undefined,
    0,
    [],
  ],
  [
    'a year far ahead is in the future',
    ['2999-01-01T00:00:00Z', '2026-01-01T10:00:00Z'],
    undefined,
    0,
    ['warning lastmod-future'],
  ],
  [
    'three equal times',
    ['2026-01-01T10:00:00Z', '2026-01-01T10:00:00Z', '2026-01-01T10:00:00Z'],
    undefined,
    0,
    ['warning lastmod-all-identical'],
  ],
  [
    "equal to the file's modification time: the generation time",
    ['2026-02-01T06:01:00Z', '2026-02-01T05:58:00Z', '2025-11-01T08:00:00Z'],
    GENERATED,
    0,
    ['warning lastmod-generation-time'],
  ],
  [
    'dates alone beside values with a time: a note',
    ['2026-01-01', '2026-01-02T10:00:00Z', '2026-01-03'],
    undefined,
    0,
    ['info lastmod-date-only'],
  ],
];

describe('waymark sitemap validate: lastmod findings', () => {
  for (const [name, lastmods, mtime, code, expected] of CASES) {
    test(name, async () => {
      const file = sitemapFile(urlset(lastmods), mtime);
      const text = await runCliForTest(['sitemap', 'validate', file]);
      assert.equal(text.code, code, text.stderr);
      assert.match(text.stderr, /urlset, \d+ entries, valid/);
      const lines = text.stdout.split('\n').filter((line) => line !== '');
      assert.deepEqual(
        lines.map((line) => {
          const [, severity, findingCode] = /: (warning|info): .* \[([a-z-]+)\]$/.exec(line) ?? [];
          return `${severity} ${findingCode}`;
        }),
        expected,
      );
      for (const line of lines) assert.ok(line.startsWith(`${file}: `), line);

      const json = await runCliForTest(['sitemap', 'validate', '--json', file]);
      assert.equal(json.code, code);
      const records = json.stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line));
      assert.deepEqual(
        records.map((r) => `${r.severity} ${r.code}`),
        expected,
      );
      for (const record of records) {
        assert.equal(record.file, file);
        assert.equal(record.line, null);
        assert.equal(record.column, null);
        assert.ok(record.count >= 1 && record.examples.length >= 1);
        assert.match(record.examples[0].loc, /^https:\/\/example\.com\/\d$/);
      }
    });
  }

  test('errors still exit 1, and the lastmod findings come after the diagnostics', async () => {
    const file = sitemapFile(urlset(['2999-01-01', '2026-01-01'], '<priority>2</priority>'));
    const result = await runCliForTest(['sitemap', 'validate', file]);
    assert.equal(result.code, 1);
    const lines = result.stdout.trim().split('\n');
    assert.match(lines[0] ?? '', /error: .*\[invalid-priority\]$/);
    assert.match(
      lines.at(-1) ?? '',
      /warning: 1 lastmod value is in the future.*\[lastmod-future\]$/,
    );
  });

  describe('a sitemap made on request', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({
        // A generator that writes "now" for every page.
        '/sitemap.xml': (_, res) => {
          const now = new Date().toISOString();
          res.writeHead(200, { 'content-type': 'application/xml' });
          res.end(urlset([now, now.replace(/\.\d+Z$/, 'Z')]));
        },
      });
    });
    after(() => server.close());

    test('lastmod equal to the time it was read: the generation time', async () => {
      const result = await runCliForTest(['sitemap', 'validate', server.url('/sitemap.xml')]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stdout,
        /warning: 2 lastmod values are within 5 minutes of when the sitemap was generated or read.*\[lastmod-generation-time\]\n$/,
      );
    });
  });
});
