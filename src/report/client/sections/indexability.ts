// 2. Indexability: why each page is or is not in the written sitemap.
import type { ReportData } from '../../report-data.ts';
import { barChart } from '../bar-chart.ts';
import { el, section } from '../dom.ts';
import { indexabilityCounts } from '../page-stats.ts';
import { pageList } from './page-list.ts';

export function indexabilitySection(data: ReportData): HTMLElement {
  const part = section('indexability', 'Indexability');
  part.append(
    el('p', {
      className: 'definition',
      text: '“listed” pages are in the sitemap waymark wrote; every other page was left out for the reason shown: noindex (meta or header), a canonical pointing elsewhere, not HTML, a redirect (off the origin or not), a 4xx or 5xx answer, robots.txt, or a failed fetch (“error”).',
    }),
    barChart({
      title: 'Pages by indexability',
      counts: indexabilityCounts(data.pages),
      category: 'Indexability',
      measure: 'Pages',
    }),
    pageList({
      id: 'indexability-list',
      title: 'Pages and why',
      definition: 'Choose an indexability in the column filter to see the pages of one reason.',
      data,
      columns: ['url', 'indexability', 'status', 'detail', 'inSitemap', 'title'],
    }),
  );
  return part;
}
