// Every list in the report: a table that draws only the rows in view (fixed row height, a
// spacer row above and below for the scroll height), so 100,000 rows cost a few dozen DOM
// rows. Sticky header, sort buttons, a filter per column, a search box, a live count, and a
// CSV download of the whole current view. The view itself is computed by TableModel.
import { viewToCsv } from './csv.ts';
import { debounce, el, uniqueId, urlLink } from './dom.ts';
import { formatCount } from './format.ts';
import {
  type Cell,
  type ColumnSpec,
  type SortState,
  selectOptions,
  TableModel,
  type TableQuery,
} from './table-query.ts';

/** Row height in CSS px; the stylesheet fixes rows to it (report.css `--row-height`). */
export const ROW_HEIGHT = 30;
/** Rows drawn above and below the visible ones, so fast scrolling shows no gap. */
const MARGIN_ROWS = 12;
const TYPING_PAUSE_MS = 150;
/** Widest column on a screen up to 600 px wide. */
const NARROW_MAX_WIDTH = 210;

export interface DataTableOptions<R> {
  /** Names the table for screen readers, and the CSV file. */
  readonly caption: string;
  readonly rows: readonly R[];
  readonly columns: readonly ColumnSpec<R>[];
  /** Columns the search box looks in; none means no search box. */
  readonly searchIds?: readonly string[];
  /** Filters and sort to start with. */
  readonly query?: Partial<TableQuery>;
  /** File name of the CSV download, without `.csv`. */
  readonly csvName: string;
}

export class DataTable<R> {
  readonly element: HTMLElement;
  #model: TableModel<R>;
  #query: TableQuery;
  #indices: number[] = [];
  readonly #options: DataTableOptions<R>;
  readonly #scroller: HTMLElement;
  readonly #table: HTMLTableElement;
  readonly #body: HTMLTableSectionElement;
  readonly #head: HTMLTableSectionElement;
  readonly #count: HTMLElement;
  readonly #sortButtons = new Map<string, { th: HTMLElement; mark: HTMLElement }>();
  readonly #filterControls = new Map<string, HTMLInputElement | HTMLSelectElement>();
  #drawn = { first: -1, last: -1 };
  #frame = 0;

  constructor(options: DataTableOptions<R>) {
    this.#options = options;
    this.#model = new TableModel(options.rows, options.columns, options.searchIds ?? []);
    this.#query = {
      search: options.query?.search ?? '',
      filters: { ...options.query?.filters },
      sort: options.query?.sort ?? null,
    };
    // On a phone, wide columns (URLs, titles) shrink so the next column shows without scrolling.
    const narrow = typeof matchMedia === 'function' && matchMedia('(max-width: 600px)').matches;
    const widths = options.columns.map((column) =>
      narrow ? Math.min(column.width, NARROW_MAX_WIDTH) : column.width,
    );
    this.#count = el('span', { className: 'row-count', attrs: { 'aria-live': 'polite' } });
    this.#head = el('thead');
    this.#body = el('tbody');
    this.#table = el('table', { className: 'grid' }, [
      el('caption', { className: 'visually-hidden', text: options.caption }),
      el(
        'colgroup',
        {},
        widths.map((width) => {
          const col = el('col');
          col.style.width = `${width}px`;
          return col;
        }),
      ),
      this.#head,
      this.#body,
    ]);
    const totalWidth = widths.reduce((sum, width) => sum + width, 0);
    this.#table.style.width = `${totalWidth}px`;
    this.#scroller = el(
      'div',
      {
        className: 'table-scroller',
        attrs: { tabindex: '0', role: 'region', 'aria-label': `${options.caption} (scrollable)` },
      },
      [this.#table],
    );
    this.#scroller.addEventListener('scroll', () => this.#scheduleDraw(), { passive: true });
    this.#buildHead();
    this.element = el('div', { className: 'data-table' }, [
      this.#controls(),
      this.#scroller,
      el('p', { className: 'print-only', text: `${options.caption}: see this list in a browser.` }),
    ]);
    this.#update();
    if (typeof ResizeObserver !== 'undefined') {
      new ResizeObserver(() => this.#scheduleDraw()).observe(this.#scroller);
    }
  }

  /** The row indices of the current view, in order. */
  get view(): readonly number[] {
    return this.#indices;
  }

  /** Replaces the rows (the tester's result list), keeping filters and sort. */
  setRows(rows: readonly R[]): void {
    this.#model = new TableModel(rows, this.#options.columns, this.#options.searchIds ?? []);
    for (const [id, control] of this.#filterControls) {
      const column = this.#model.column(id);
      if (column !== undefined && control instanceof HTMLSelectElement) {
        this.#fillSelect(control, column);
      }
    }
    this.#update();
  }

  /** The CSV text of the current view: every matching row, in view order. */
  csv(): string {
    return viewToCsv(this.#model.rows, this.#model.columns, this.#indices);
  }

  #controls(): HTMLElement {
    const controls = el('div', { className: 'table-controls' });
    if ((this.#options.searchIds ?? []).length > 0) {
      const id = uniqueId('search');
      const names = this.#options.columns
        .filter((column) => this.#options.searchIds?.includes(column.id))
        .map((column) => column.label)
        .join(' and ');
      const input = el('input', {
        id,
        className: 'search',
        attrs: { type: 'search', placeholder: `Search ${names}`, autocomplete: 'off' },
      });
      input.value = this.#query.search;
      const apply = debounce(() => {
        this.#query = { ...this.#query, search: input.value };
        this.#update();
      }, TYPING_PAUSE_MS);
      input.addEventListener('input', apply);
      controls.append(
        el('label', { className: 'search-label', attrs: { for: id } }, [
          el('span', { text: 'Search' }),
          input,
        ]),
      );
    }
    const download = el('button', {
      className: 'csv',
      text: 'Download CSV',
      attrs: { type: 'button' },
    });
    download.addEventListener('click', () => this.#download());
    controls.append(this.#count, download);
    return controls;
  }

  #buildHead(): void {
    const labels = el('tr');
    const filters = el('tr', { className: 'filters' });
    for (const column of this.#options.columns) {
      const mark = el('span', { className: 'sort-mark', attrs: { 'aria-hidden': 'true' } });
      const button = el('button', { className: 'sort', attrs: { type: 'button' } }, [
        column.label,
        mark,
      ]);
      button.addEventListener('click', () => this.#sortBy(column.id));
      const th = el('th', { attrs: { scope: 'col' } }, [button]);
      if (column.numeric === true) th.classList.add('numeric');
      this.#sortButtons.set(column.id, { th, mark });
      labels.append(th);
      filters.append(el('td', {}, [this.#filterControl(column)]));
    }
    this.#head.append(labels, filters);
  }

  #filterControl(column: ColumnSpec<R>): HTMLElement {
    const id = uniqueId('filter');
    const label = el('label', {
      className: 'visually-hidden',
      text: `Filter ${column.label}`,
      attrs: { for: id },
    });
    let control: HTMLInputElement | HTMLSelectElement;
    if (column.filter === 'select' || column.filter === 'status') {
      control = el('select', { id, className: 'filter' });
      this.#fillSelect(control, column);
      control.addEventListener('change', () => this.#setFilter(column.id, control.value));
    } else {
      control = el('input', {
        id,
        className: 'filter',
        attrs: {
          type: 'text',
          autocomplete: 'off',
          placeholder: column.filter === 'range' ? '>1, 2..5' : 'contains',
          title:
            column.filter === 'range'
              ? 'A number, <n, <=n, >n, >=n, a..b, or 4xx'
              : 'Text the cell contains',
        },
      });
      const input = control;
      input.value = this.#query.filters[column.id] ?? '';
      input.addEventListener(
        'input',
        debounce(() => this.#setFilter(column.id, input.value), TYPING_PAUSE_MS),
      );
    }
    this.#filterControls.set(column.id, control);
    return el('div', { className: 'filter-cell' }, [label, control]);
  }

  #fillSelect(select: HTMLSelectElement, column: ColumnSpec<R>): void {
    const current = this.#query.filters[column.id] ?? '';
    select.replaceChildren(el('option', { text: 'all', attrs: { value: '' } }));
    for (const option of selectOptions(this.#model.rows, column)) {
      select.append(
        el('option', {
          text: `${option.label} (${formatCount(option.count)})`,
          attrs: { value: option.value },
        }),
      );
    }
    select.value = current;
    if (select.value !== current) {
      // A preset filter whose value no row has: keep it as an option so the view is honest.
      select.append(
        el('option', { text: `${current.replace(/^v:/, '')} (0)`, attrs: { value: current } }),
      );
      select.value = current;
    }
  }

  #setFilter(id: string, value: string): void {
    this.#query = { ...this.#query, filters: { ...this.#query.filters, [id]: value } };
    this.#update();
  }

  #sortBy(id: string): void {
    const current = this.#query.sort;
    const sort: SortState =
      current?.column === id && current.direction === 'asc'
        ? { column: id, direction: 'desc' }
        : { column: id, direction: 'asc' };
    this.#query = { ...this.#query, sort };
    this.#update();
  }

  #update(): void {
    const { indices, errors } = this.#model.view(this.#query);
    this.#indices = indices;
    for (const [id, control] of this.#filterControls) {
      const error = errors[id];
      if (error === undefined) {
        control.removeAttribute('aria-invalid');
      } else {
        control.setAttribute('aria-invalid', 'true');
      }
    }
    for (const [id, { th, mark }] of this.#sortButtons) {
      const sort = this.#query.sort?.column === id ? this.#query.sort.direction : null;
      if (sort === null) th.removeAttribute('aria-sort');
      else th.setAttribute('aria-sort', sort === 'asc' ? 'ascending' : 'descending');
      mark.textContent = sort === null ? '' : sort === 'asc' ? ' ▲' : ' ▼';
    }
    const total = this.#model.rows.length;
    this.#count.textContent = `${formatCount(indices.length)} of ${formatCount(total)} rows`;
    this.#table.setAttribute('aria-rowcount', String(indices.length + 2));
    this.#drawn = { first: -1, last: -1 };
    this.#draw();
  }

  #scheduleDraw(): void {
    if (this.#frame !== 0) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#draw();
    });
  }

  #draw(): void {
    const count = this.#indices.length;
    const headHeight = this.#head.offsetHeight;
    const viewHeight = this.#scroller.clientHeight || ROW_HEIGHT * 20;
    const top = Math.max(0, this.#scroller.scrollTop - headHeight);
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - MARGIN_ROWS);
    const last = Math.min(count, Math.ceil((top + viewHeight) / ROW_HEIGHT) + MARGIN_ROWS);
    if (first === this.#drawn.first && last === this.#drawn.last) return;
    this.#drawn = { first, last };
    const columns = this.#model.columns;
    const rows: HTMLElement[] = [this.#spacer(first)];
    if (count === 0) {
      rows.push(
        el('tr', { className: 'empty' }, [
          el('td', { text: 'No rows match.', attrs: { colspan: String(columns.length) } }),
        ]),
      );
    }
    for (let position = first; position < last; position++) {
      const row = this.#model.rows[this.#indices[position] as number] as R;
      const tr = el('tr', { attrs: { 'aria-rowindex': String(position + 3) } });
      for (const column of columns) tr.append(this.#cell(column, column.value(row)));
      rows.push(tr);
    }
    rows.push(this.#spacer(count - last));
    this.#body.replaceChildren(...rows);
  }

  #spacer(rowCount: number): HTMLElement {
    const td = el('td', { attrs: { colspan: String(this.#model.columns.length) } });
    td.style.height = `${rowCount * ROW_HEIGHT}px`;
    return el('tr', { className: 'spacer', attrs: { 'aria-hidden': 'true' } }, [td]);
  }

  #cell(column: ColumnSpec<R>, value: Cell): HTMLElement {
    const text =
      value === null ? '' : column.format === undefined ? String(value) : column.format(value);
    const td = el('td');
    if (column.numeric === true) td.className = 'numeric';
    if (column.link === true && typeof value === 'string') td.append(urlLink(value, text));
    else td.textContent = text;
    if (text.length > 12) td.title = text;
    return td;
  }

  #download(): void {
    const blob = new Blob(['\ufeff', this.csv()], { type: 'text/csv;charset=utf-8' });
    const href = URL.createObjectURL(blob);
    const link = el('a', { attrs: { href, download: `${this.#options.csvName}.csv` } });
    document.body.append(link);
    link.click();
    link.remove();
    // Revoked later, not at once: the download reads the Blob after click() returns.
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
  }
}
