// The Content-Usage HTTP header (draft-ietf-aipref-attach) per document: from its sidecar,
// else from the configuration (one value, or by URL path prefix); on documents only.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { parseSiteConfig, startSiteServer } from './index.ts';
import { makeContentRoot } from './test-support/content-root.ts';

const idOf = (path: string): string => createHash('sha256').update(path).digest('hex').slice(0, 16);

const FILES: Record<string, string> = {
  'home.md': '# Home\n',
  'home.md.meta.yaml': 'alias: home\n',
  'blog/post.md': '# Post\n',
  'blog/post.md.meta.yaml': 'alias: blog/post\n',
  'blog/own.md': '# Own\n',
  'blog/own.md.meta.yaml': 'alias: blog/own\ncontentUsage: train-ai=y, search=y\n',
  'quiet.md': '# Quiet\n',
  'quiet.md.meta.yaml': 'alias: quiet\nnoindex: true\ncontentUsage: train-ai=n\n',
  'staff.md': '# Staff\n',
  'staff.md.meta.yaml': 'alias: staff\naccess: restricted\ncontentUsage: train-ai=n\n',
  'paper.pdf': '%PDF-1.4\n',
  'broken.md': '# Broken\n',
  'broken.md.meta.yaml': 'alias: broken\ncontentUsage: "TRAIN-AI=n"\n',
  'novel.md': '# Novel\n',
  'novel.md.meta.yaml': 'alias: novel\ncontentUsage: train-ai=n, ai-dreams=y\n',
  'waymark.site.yaml': 'contentUsage:\n  /: train-ai=n\n  /blog/: train-ai=y\n',
};

describe('Content-Usage header', () => {
  test('sidecar, else the longest configured prefix; documents only; real HTTP', async (t) => {
    const root = makeContentRoot(FILES);
    t.after(() => root.remove());
    const server = await startSiteServer({ root: root.dir, port: 0 });
    t.after(() => server.close());
    const header = async (path: string, method = 'GET'): Promise<[number, string | null]> => {
      const response = await fetch(server.origin + path, { method });
      await response.arrayBuffer();
      return [response.status, response.headers.get('content-usage')];
    };
    const CASES: [path: string, expected: [number, string | null]][] = [
      ['/home', [200, 'train-ai=n']],
      [`/id/${idOf('home.md')}`, [200, 'train-ai=n']],
      ['/blog/post', [200, 'train-ai=y']],
      ['/blog/own', [200, 'train-ai=y, search=y']],
      ['/quiet', [200, 'train-ai=n']],
      [`/id/${idOf('paper.pdf')}`, [200, 'train-ai=n']],
      ['/novel', [200, 'train-ai=n, ai-dreams=y']],
      // Not documents: no header.
      ['/staff', [403, null]],
      ['/broken', [404, null]],
      ['/', [200, null]],
      ['/robots.txt', [200, null]],
      ['/sitemap.xml', [200, null]],
    ];
    for (const [path, expected] of CASES) {
      assert.deepEqual(await header(path), expected, path);
    }
    assert.deepEqual(await header('/home', 'HEAD'), [200, 'train-ai=n']);
    const diagnostics = await server.handler.diagnostics();
    const broken = diagnostics.find((d) => d.path === 'broken.md');
    assert.equal(broken?.code, 'sidecar-content-usage');
    assert.equal(broken?.severity, 'error');
    assert.equal(broken?.line, 2);
    // An unknown term is told, and the value is still sent as written.
    const novel = diagnostics.find((d) => d.path === 'novel.md');
    assert.equal(novel?.code, 'unknown-usage-term');
    assert.equal(novel?.severity, 'info');
  });

  test('configuration: values are checked; unknown terms are notes', () => {
    for (const yaml of [
      'contentUsage: "train-ai=n,, x=y"',
      'contentUsage: [train-ai=n]',
      'contentUsage: { blog/: train-ai=n }',
      'contentUsage: { /blog/: 3 }',
    ]) {
      assert.equal(parseSiteConfig(yaml).diagnostics[0]?.code, 'config-invalid', yaml);
    }
    const legacy = parseSiteConfig('contentUsage: genai=n\n');
    assert.deepEqual(legacy.config, { contentUsage: 'genai=n' });
    assert.deepEqual(
      legacy.diagnostics.map((d) => [d.code, d.severity]),
      [['legacy-usage-term', 'warning']],
    );
  });
});
