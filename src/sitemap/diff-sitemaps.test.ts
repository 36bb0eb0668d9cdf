// diffSitemaps, table-driven from testdata/diff/cases.json: each case names two files of that
// folder and the diff expected between them. Each case runs with the files given as bytes,
// as readings opened by parseSitemap, and as functions that open them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { hasErrors } from '../shared/diagnostic.ts';
import { diffSitemaps, type SitemapDiff, type SitemapDiffSource } from './diff-sitemaps.ts';
import { parseSitemap } from './read-sitemap.ts';

interface DiffCase {
  readonly name: string;
  readonly old: string;
  readonly new: string;
  readonly oldKind: string;
  readonly newKind: string;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly lastmodChanged: readonly object[];
  readonly counts: SitemapDiff['counts'];
  readonly newErrors: boolean;
}

const folder = new URL('./testdata/diff/', import.meta.url);
const { cases } = JSON.parse(readFileSync(new URL('cases.json', folder), 'utf8')) as {
  cases: DiffCase[];
};
const bytesOf = (name: string) => new Uint8Array(readFileSync(new URL(name, folder)));

const FORMS: Record<string, (name: string) => SitemapDiffSource> = {
  bytes: bytesOf,
  reading: (name) => parseSitemap(bytesOf(name)),
  opener: (name) => async () => bytesOf(name),
};

describe('diffSitemaps', () => {
  for (const c of cases) {
    for (const [form, source] of Object.entries(FORMS)) {
      test(`${c.name} (${form})`, async () => {
        const diff = await diffSitemaps(source(c.old), source(c.new));
        assert.equal(diff.oldKind, c.oldKind);
        assert.equal(diff.newKind, c.newKind);
        assert.deepEqual(
          diff.added.map((entry) => entry.loc),
          c.added,
        );
        assert.deepEqual(
          diff.removed.map((entry) => entry.loc),
          c.removed,
        );
        assert.deepEqual(diff.lastmodChanged, c.lastmodChanged);
        assert.deepEqual(diff.counts, c.counts);
        assert.equal(hasErrors(diff.newDiagnostics), c.newErrors);
        assert.equal(hasErrors(diff.oldDiagnostics), false);
      });
    }
  }

  test('added and removed entries keep their lastmod', async () => {
    const diff = await diffSitemaps(bytesOf('pages-old.xml'), bytesOf('pages-new.xml'));
    assert.deepEqual(diff.added[0], {
      loc: 'https://example.com/blog/third',
      lastmod: '2024-06-04',
    });
    assert.deepEqual(diff.removed, [
      { loc: 'https://example.com/old-page', lastmod: '2023-12-31' },
      { loc: 'https://example.com/gone' },
    ]);
  });

  test('a document that is not a sitemap is a diagnostic, not a throw', async () => {
    const diff = await diffSitemaps(
      '<html><body>not a sitemap</body></html>',
      bytesOf('empty.xml'),
    );
    assert.equal(diff.counts.old, 0);
    assert.ok(diff.oldDiagnostics.length > 0);
  });

  test('50,000 URLs against 50,000 with every tenth changed: the counts add up', async () => {
    const urlset = (stamp: (i: number) => string) => {
      const parts = ['<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'];
      for (let i = 0; i < 50_000; i++) {
        parts.push(
          `<url><loc>https://example.com/p/${i}</loc><lastmod>${stamp(i)}</lastmod></url>`,
        );
      }
      parts.push('</urlset>');
      return parts.join('\n');
    };
    const before = urlset(() => '2024-01-01');
    const after = urlset((i) => (i % 10 === 0 ? '2024-02-01' : '2024-01-01'));
    const diff = await diffSitemaps(before, after);
    assert.equal(diff.counts.lastmodChanged, 5_000);
    assert.equal(diff.counts.unchanged, 45_000);
    assert.equal(diff.counts.added + diff.counts.removed, 0);
  });
});
