// 3. Sitemap vs crawl: the site's sitemap files, what they list against what the crawl found,
// and what the reader had to say about each file.
import type { ReportData, ReportSitemap } from '../../report-data.ts';
import type { ReportAnalysis } from '../analysis.ts';
import { DataTable } from '../data-table.ts';
import { el, section, urlLink } from '../dom.ts';
import { formatCount } from '../format.ts';
import { overProtocolLimits } from '../sitemap-checks.ts';
import type { ColumnSpec } from '../table-query.ts';
import { pageList } from './page-list.ts';

const FILE_COLUMNS: ColumnSpec<ReportSitemap>[] = [
  { id: 'url', label: 'Sitemap', filter: 'text', width: 320, link: true, value: (s) => s.url },
  {
    id: 'parent',
    label: 'Named by',
    filter: 'text',
    width: 260,
    value: (s) => s.parent ?? 'robots.txt or the command line',
  },
  {
    id: 'status',
    label: 'Status',
    filter: 'status',
    width: 90,
    numeric: true,
    value: (s) => s.status,
  },
  { id: 'kind', label: 'Kind', filter: 'select', width: 100, value: (s) => s.kind },
  {
    id: 'entries',
    label: 'Entries',
    filter: 'range',
    width: 100,
    numeric: true,
    value: (s) => s.entries,
    format: (v) => formatCount(Number(v)),
  },
  { id: 'skipped', label: 'Not read because', filter: 'text', width: 220, value: (s) => s.skipped },
  {
    id: 'diagnostics',
    label: 'Diagnostics',
    filter: 'range',
    width: 110,
    numeric: true,
    value: (s) => s.diagnostics.length + s.diagnosticsDropped,
  },
  {
    id: 'limits',
    label: 'Over limits',
    filter: 'select',
    width: 110,
    value: (s) => (overProtocolLimits(s) ? 'yes' : 'no'),
  },
];

export function sitemapSection(data: ReportData, analysis: ReportAnalysis): HTMLElement {
  const part = section('sitemap', 'Sitemap vs crawl');
  const findings = analysis.sitemap;
  part.append(
    el('p', {
      className: 'definition',
      text: '“In the sitemap” means named by one of the site’s own sitemap files (below), not the sitemap waymark wrote.',
    }),
  );

  const files = section('sitemap-files', 'Sitemap files', 'h3');
  if (data.sitemaps.length === 0) {
    files.append(
      el('p', {
        className: 'none',
        text: 'No sitemap was found: robots.txt names none and none was given.',
      }),
    );
  } else {
    files.append(
      new DataTable({
        caption: 'Sitemap files',
        rows: data.sitemaps,
        columns: FILE_COLUMNS,
        csvName: 'waymark-sitemap-files',
      }).element,
    );
  }
  part.append(files);

  part.append(
    pageList({
      id: 'sitemap-not-indexable',
      data,
      indices: findings.listedNotIndexable,
      title: 'In the sitemap but not indexable',
      definition:
        'Named by a sitemap, but noindex, canonicalised elsewhere, not HTML, blocked by robots.txt, a 5xx or a failed fetch: the worst sitemap error, since the sitemap asks search engines to index pages they must not.',
      columns: ['url', 'indexability', 'status', 'detail', 'title'],
    }),
    pageList({
      id: 'sitemap-redirect-4xx',
      data,
      indices: findings.listedRedirectOr4xx,
      title: 'In the sitemap but redirecting or 4xx',
      definition:
        'Named by a sitemap but answering with a redirect (the sitemap should name the target) or a 4xx.',
      columns: ['url', 'status', 'indexability', 'detail', 'title'],
    }),
    pageList({
      id: 'sitemap-orphans',
      data,
      indices: findings.orphans,
      title: 'Orphans: in the sitemap, never linked',
      definition: 'Named by a sitemap but linked from no page the crawl fetched.',
      columns: ['url', 'status', 'indexability', 'title'],
    }),
    pageList({
      id: 'sitemap-missing',
      data,
      indices: findings.missingFromSitemap,
      title: 'Indexable but missing from the sitemap',
      definition: 'Pages waymark found indexable (listed) that none of the site’s sitemaps names.',
      columns: ['url', 'depth', 'inlinks', 'title'],
    }),
    pageList({
      id: 'sitemap-several',
      data,
      indices: findings.inSeveralSitemaps,
      title: 'In more than one sitemap file',
      definition: 'URLs named by two or more sitemap files (the column says how many).',
      columns: ['url', 'sitemaps', 'indexability', 'title'],
    }),
  );

  const limits = section('sitemap-limits', 'Files over the protocol limits', 'h3');
  limits.append(
    el('p', {
      className: 'definition',
      text: 'sitemaps.org allows 50,000 URLs (or sitemaps, for an index) and 50 MiB uncompressed per file.',
    }),
  );
  if (findings.overLimits.length === 0)
    limits.append(el('p', { className: 'none', text: 'None.' }));
  else {
    limits.append(
      el(
        'ul',
        {},
        findings.overLimits.map((index) => {
          const sitemap = data.sitemaps[index] as ReportSitemap;
          return el('li', {}, [urlLink(sitemap.url), `: ${formatCount(sitemap.entries)} entries`]);
        }),
      ),
    );
  }
  part.append(limits, diagnosticsPart(data, findings.withDiagnostics));
  return part;
}

function diagnosticsPart(data: ReportData, withDiagnostics: readonly number[]): HTMLElement {
  const part = section('sitemap-diagnostics', 'What the reader found, per file', 'h3');
  if (withDiagnostics.length === 0) {
    part.append(el('p', { className: 'none', text: 'No diagnostics.' }));
    return part;
  }
  for (const index of withDiagnostics) {
    const sitemap = data.sitemaps[index] as ReportSitemap;
    const shown = sitemap.diagnostics.length;
    const details = el('details', { className: 'diagnostics' }, [
      el('summary', {}, [sitemap.url, ` (${formatCount(shown + sitemap.diagnosticsDropped)})`]),
      el('div', { className: 'table-box' }, [
        el('table', { className: 'plain' }, [
          el('caption', { className: 'visually-hidden', text: `Diagnostics of ${sitemap.url}` }),
          el('thead', {}, [
            el(
              'tr',
              {},
              ['Line', 'Column', 'Severity', 'Code', 'Message'].map((h) =>
                el('th', { text: h, attrs: { scope: 'col' } }),
              ),
            ),
          ]),
          el(
            'tbody',
            {},
            sitemap.diagnostics.map((d) =>
              el('tr', { className: `severity-${d.severity}` }, [
                el('td', { className: 'numeric', text: formatCount(d.line) }),
                el('td', { className: 'numeric', text: formatCount(d.column) }),
                el('td', { text: d.severity }),
                el('td', { text: d.code }),
                el('td', { text: d.message }),
              ]),
            ),
          ),
        ]),
      ]),
      sitemap.diagnosticsDropped > 0
        ? el('p', {
            text: `and ${formatCount(sitemap.diagnosticsDropped)} more, not kept (the report keeps the first ${formatCount(shown)}).`,
          })
        : null,
    ]);
    if (withDiagnostics.length <= 5) details.open = true;
    part.append(details);
  }
  return part;
}
