// onDiagnostics: what `waymark serve` prints as files change.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { createSiteHandler, type SiteDiagnosticsReport } from './index.ts';
import { makeContentRoot, siteRequest } from './test-support/content-root.ts';

/** A report as `[code, path]` lists of what was found and what was resolved. */
function summary(report: SiteDiagnosticsReport | undefined): [string[], string[]] {
  const name = (d: { code: string; path: string }): string => `${d.code} ${d.path}`;
  return [report?.found.map(name) ?? [], report?.resolved.map(name) ?? []];
}

test('onDiagnostics: a problem once per change of its file, then resolved; a throwing hook breaks nothing', async (t) => {
  const root = makeContentRoot({
    'a.md': '# A\n',
    'a.md.meta.yaml': 'noindex: maybe\n',
    'b.md': '# B\n',
  });
  t.after(() => root.remove());
  const reports: SiteDiagnosticsReport[] = [];
  const handler = createSiteHandler({
    root: root.dir,
    revalidate: 'stat',
    onDiagnostics: (report) => {
      reports.push(report);
      throw new Error('a hook that fails');
    },
  });
  try {
    assert.equal((await handler(siteRequest('/robots.txt'))).status, 200);
    assert.deepEqual(reports.map(summary), [[['sidecar-noindex a.md'], []]]);
    // Other requests, and a change to another document: nothing new to tell.
    await handler(siteRequest('/sitemap.xml'));
    writeFileSync(root.path('b.md'), '# B again\n');
    await handler(siteRequest('/sitemap.xml'));
    assert.equal(reports.length, 1);
    // The sidecar saved again, still wrong: told again.
    writeFileSync(root.path('a.md.meta.yaml'), 'noindex: maybe\n\n');
    await handler(siteRequest('/sitemap.xml'));
    assert.deepEqual(summary(reports[1]), [['sidecar-noindex a.md'], []]);
    // A new problem beside it, then both fixed.
    writeFileSync(root.path('b.md.meta.yaml'), 'access: nobody\n');
    await handler(siteRequest('/sitemap.xml'));
    assert.deepEqual(summary(reports[2]), [['sidecar-access b.md'], []]);
    writeFileSync(root.path('a.md.meta.yaml'), 'noindex: true\n');
    writeFileSync(root.path('b.md.meta.yaml'), 'access: public\n');
    await handler(siteRequest('/sitemap.xml'));
    assert.deepEqual(summary(reports[3]), [[], ['sidecar-noindex a.md', 'sidecar-access b.md']]);
    assert.equal(reports.length, 4);
    assert.deepEqual(await handler.diagnostics(), []);
  } finally {
    await handler.close();
  }
});
