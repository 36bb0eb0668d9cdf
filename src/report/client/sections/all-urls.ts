// 7. All URLs: every row, searchable, filterable by any column, sortable, exportable.
import type { ReportData } from '../../report-data.ts';
import { ALL_URL_COLUMNS } from '../page-table-columns.ts';
import { pageList } from './page-list.ts';

export function allUrlsSection(data: ReportData): HTMLElement {
  return pageList({
    id: 'urls',
    level: 'h2',
    title: 'All URLs',
    definition:
      'Every URL the crawl met, in the order it settled them. Search looks in the URL and the title; each column has a filter (numbers take 3, >2, <=1, 1..3, and status takes 4xx); click a column name to sort. The CSV holds every row of the current view.',
    data,
    columns: ALL_URL_COLUMNS,
  });
}
