// A subsection listing some of the crawled URLs: heading, what the list means, and the rows
// in a DataTable (or "None.").
import type { ReportData } from '../../report-data.ts';
import { DataTable } from '../data-table.ts';
import { el, section } from '../dom.ts';
import type { PageRow } from '../page-columns.ts';
import { PAGE_SEARCH_COLUMNS, type PageColumnName, pageColumns } from '../page-table-columns.ts';
import type { TableQuery } from '../table-query.ts';

export interface PageListOptions {
  readonly id: string;
  readonly title: string;
  /** What the list holds and why it matters, in a sentence or two. */
  readonly definition: string;
  readonly data: ReportData;
  /** Indices into data.pages; all rows when omitted. */
  readonly indices?: readonly number[];
  readonly columns: readonly PageColumnName[];
  readonly search?: boolean;
  readonly query?: Partial<TableQuery>;
  readonly level?: 'h2' | 'h3';
}

export function pageList(options: PageListOptions): HTMLElement {
  const part = section(options.id, options.title, options.level ?? 'h3');
  part.append(el('p', { className: 'definition', text: options.definition }));
  const rows: readonly PageRow[] =
    options.indices === undefined
      ? options.data.pages
      : options.indices.map((index) => options.data.pages[index] as PageRow);
  if (rows.length === 0) {
    part.append(el('p', { className: 'none', text: 'None.' }));
    return part;
  }
  const table = new DataTable({
    caption: options.title,
    rows,
    columns: pageColumns(...options.columns),
    searchIds: options.search === false ? [] : PAGE_SEARCH_COLUMNS,
    csvName: `waymark-${options.id}`,
    ...(options.query === undefined ? {} : { query: options.query }),
  });
  part.append(table.element);
  return part;
}
