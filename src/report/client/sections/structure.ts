// 6. Structure: depth, status codes, content types, response times, redirect chains and the
// slowest pages.
import type { ReportData } from '../../report-data.ts';
import type { ReportAnalysis } from '../analysis.ts';
import { barChart } from '../bar-chart.ts';
import { DataTable } from '../data-table.ts';
import { el, section, urlLink } from '../dom.ts';
import { formatCount } from '../format.ts';
import { COL, type PageRow } from '../page-columns.ts';
import {
  contentTypeCounts,
  depthCounts,
  responseTimeHistogram,
  slowestRows,
  statusCounts,
} from '../page-stats.ts';
import type { RedirectChain } from '../redirect-chains.ts';
import type { ColumnSpec } from '../table-query.ts';

export function structureSection(data: ReportData, analysis: ReportAnalysis): HTMLElement {
  const part = section('structure', 'Structure');
  const pages = data.pages;
  const charts: [string, string, HTMLElement][] = [
    [
      'structure-depth',
      'Depth',
      barChart({
        title: 'URLs by link depth',
        counts: depthCounts(pages),
        category: 'Depth',
        measure: 'URLs',
      }),
    ],
    [
      'structure-status',
      'Status codes',
      barChart({
        title: 'URLs by HTTP status',
        counts: statusCounts(pages),
        category: 'Status',
        measure: 'URLs',
      }),
    ],
    [
      'structure-types',
      'Content types',
      barChart({
        title: 'URLs by content type',
        counts: contentTypeCounts(pages),
        category: 'Content type',
        measure: 'URLs',
      }),
    ],
    [
      'structure-times',
      'Response times',
      barChart({
        title: 'Pages by response time',
        counts: responseTimeHistogram(pages),
        category: 'Response time',
        measure: 'Pages',
      }),
    ],
  ];
  for (const [id, title, chart] of charts) {
    const sub = section(id, title, 'h3');
    sub.append(chart);
    part.append(sub);
  }
  part.append(chainsPart(analysis.chains, pages), slowestPart(pages));
  return part;
}

function chainsPart(chains: readonly RedirectChain[], pages: readonly PageRow[]): HTMLElement {
  const sub = section('structure-redirects', 'Redirect chains longer than one hop', 'h3');
  sub.append(
    el('p', {
      className: 'definition',
      text: 'Each URL whose redirects take more than one hop to settle, longest first: link to the final URL instead.',
    }),
  );
  if (chains.length === 0) {
    sub.append(el('p', { className: 'none', text: 'None.' }));
    return sub;
  }
  const columns: ColumnSpec<RedirectChain>[] = [
    {
      id: 'start',
      label: 'URL',
      filter: 'text',
      width: 300,
      link: true,
      value: (c) => (pages[c.start] as PageRow)[COL.url],
    },
    { id: 'hops', label: 'Hops', filter: 'range', width: 70, numeric: true, value: (c) => c.hops },
    { id: 'end', label: 'Ends with', filter: 'select', width: 100, value: (c) => c.end },
    { id: 'chain', label: 'Chain', filter: 'text', width: 600, value: (c) => c.urls.join(' → ') },
  ];
  sub.append(
    new DataTable({
      caption: 'Redirect chains',
      rows: chains,
      columns,
      csvName: 'waymark-redirect-chains',
    }).element,
  );
  return sub;
}

function slowestPart(pages: readonly PageRow[]): HTMLElement {
  const sub = section('structure-slowest', 'Slowest pages', 'h3');
  const slowest = slowestRows(pages);
  if (slowest.length === 0) {
    sub.append(el('p', { className: 'none', text: 'No response times were recorded.' }));
    return sub;
  }
  sub.append(
    el('div', { className: 'table-box' }, [
      el('table', { className: 'plain slowest' }, [
        el('caption', { className: 'visually-hidden', text: 'The slowest pages' }),
        el('thead', {}, [
          el(
            'tr',
            {},
            ['URL', 'Time', 'Status', 'Content type'].map((h) =>
              el('th', { text: h, attrs: { scope: 'col' } }),
            ),
          ),
        ]),
        el(
          'tbody',
          {},
          slowest.map((index) => {
            const row = pages[index] as PageRow;
            return el('tr', {}, [
              el('td', { className: 'url-cell' }, [urlLink(row[COL.url])]),
              el('td', { className: 'numeric', text: `${formatCount(row[COL.ms] ?? 0)} ms` }),
              el('td', { className: 'numeric', text: row[COL.status]?.toString() ?? '' }),
              el('td', { text: row[COL.contentType] ?? '' }),
            ]);
          }),
        ),
      ]),
    ]),
  );
  return sub;
}
