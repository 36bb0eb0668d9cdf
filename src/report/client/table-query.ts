// The pure half of every list in the report: columns, filters, search and sort over rows of
// any shape, producing the row indices of the current view. The DOM table (data-table.ts)
// only draws the visible slice of that view.

export type Cell = string | number | null;

/**
 * How a column is filtered: `select` offers its distinct values, `status` offers HTTP status
 * classes and codes, `range` takes `3`, `>2`, `<=1`, `1..3` or `4xx`, `text` is a
 * case-insensitive substring.
 */
export type FilterKind = 'select' | 'status' | 'range' | 'text';

export interface ColumnSpec<R> {
  readonly id: string;
  readonly label: string;
  readonly filter: FilterKind;
  /** The cell's value: what is filtered, sorted and exported. */
  readonly value: (row: R) => Cell;
  /** The cell as shown, when not simply the value. */
  readonly format?: (value: Cell) => string;
  /** Width in CSS px (the table is laid out fixed so rows never change height). */
  readonly width: number;
  /** Right-aligned, numeric. */
  readonly numeric?: boolean;
  /** The value is an http(s) URL and is shown as a link. */
  readonly link?: boolean;
}

export interface SortState {
  readonly column: string;
  readonly direction: 'asc' | 'desc';
}

export interface TableQuery {
  /** Case-insensitive substring over the search columns. */
  readonly search: string;
  /** Raw control values by column id; `''` is no filter. */
  readonly filters: Readonly<Record<string, string>>;
  readonly sort: SortState | null;
}

/** Select option values: `v:<value>` for a value, `n` for no value, `c:<digit>` for a status class. */
export const NONE_OPTION = 'n';
export const valueOption = (value: string | number): string => `v:${value}`;

export type CompiledFilter =
  | { readonly test: (cell: Cell) => boolean }
  | { readonly error: string };

const COMPARISON = /^(<=|>=|<|>|=)?\s*(-?\d+(?:\.\d+)?)$/;
const BETWEEN = /^(-?\d+(?:\.\d+)?)\s*(?:\.\.|–|-)\s*(-?\d+(?:\.\d+)?)$/;
const STATUS_CLASS = /^([1-5])xx$/i;

/** A filter control's text as a test on cells; null when the control is empty. */
export function compileFilter(kind: FilterKind, raw: string): CompiledFilter | null {
  const text = raw.trim();
  if (text === '') return null;
  if (kind === 'text') {
    const needle = text.toLowerCase();
    return { test: (cell) => cell !== null && String(cell).toLowerCase().includes(needle) };
  }
  if (kind === 'select' || kind === 'status') {
    if (text === NONE_OPTION) return { test: (cell) => cell === null };
    if (kind === 'status' && text.startsWith('c:')) {
      const digit = Number(text.slice(2));
      return { test: (cell) => typeof cell === 'number' && Math.floor(cell / 100) === digit };
    }
    const wanted = text.startsWith('v:') ? text.slice(2) : text;
    return { test: (cell) => cell !== null && String(cell) === wanted };
  }
  return compileRange(text);
}

function compileRange(text: string): CompiledFilter {
  const statusClass = STATUS_CLASS.exec(text);
  if (statusClass !== null) {
    const low = Number(statusClass[1]) * 100;
    return { test: (cell) => typeof cell === 'number' && cell >= low && cell < low + 100 };
  }
  const between = BETWEEN.exec(text);
  if (between !== null) {
    const low = Number(between[1]);
    const high = Number(between[2]);
    return { test: (cell) => typeof cell === 'number' && cell >= low && cell <= high };
  }
  const comparison = COMPARISON.exec(text);
  if (comparison === null) return { error: 'use a number, <n, <=n, >n, >=n, a..b or 4xx' };
  const operand = Number(comparison[2]);
  const test = {
    '<': (n: number) => n < operand,
    '<=': (n: number) => n <= operand,
    '>': (n: number) => n > operand,
    '>=': (n: number) => n >= operand,
    '=': (n: number) => n === operand,
  }[(comparison[1] ?? '=') as '<' | '<=' | '>' | '>=' | '='];
  return { test: (cell) => typeof cell === 'number' && test(cell) };
}

export interface SelectOption {
  readonly value: string;
  readonly label: string;
  readonly count: number;
}

/** The choices of a select or status filter: each distinct value with its count. */
export function selectOptions<R>(rows: readonly R[], column: ColumnSpec<R>): SelectOption[] {
  const counts = new Map<string | number, number>();
  let none = 0;
  for (const row of rows) {
    const cell = column.value(row);
    if (cell === null) none++;
    else counts.set(cell, (counts.get(cell) ?? 0) + 1);
  }
  const values = [...counts].sort(([a], [b]) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : 1,
  );
  const options: SelectOption[] = [];
  if (column.filter === 'status') {
    const classes = new Map<number, number>();
    for (const [value, count] of values) {
      const digit = Math.floor(Number(value) / 100);
      classes.set(digit, (classes.get(digit) ?? 0) + count);
    }
    for (const [digit, count] of classes) {
      options.push({ value: `c:${digit}`, label: `${digit}xx`, count });
    }
  }
  for (const [value, count] of values) {
    const label = column.format === undefined ? String(value) : column.format(value);
    options.push({ value: valueOption(value), label, count });
  }
  if (none > 0) options.push({ value: NONE_OPTION, label: '(none)', count: none });
  return options;
}

/** Compares cells for sorting: numbers numerically, text by code unit (fast and stable across locales). */
function compareCells(a: Cell, b: Cell): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Filters, searches and sorts rows: a view is the row indices to show, in order. Sorted
 * orders are kept per sort state, so typing in a filter costs one pass, not a sort.
 */
export class TableModel<R> {
  readonly rows: readonly R[];
  readonly columns: readonly ColumnSpec<R>[];
  readonly #searchColumns: readonly ColumnSpec<R>[];
  #searchText: string[] | null = null;
  #sorted: { key: string; order: Uint32Array } | null = null;

  constructor(rows: readonly R[], columns: readonly ColumnSpec<R>[], searchIds: readonly string[]) {
    this.rows = rows;
    this.columns = columns;
    this.#searchColumns = columns.filter((column) => searchIds.includes(column.id));
  }

  column(id: string): ColumnSpec<R> | undefined {
    return this.columns.find((column) => column.id === id);
  }

  /** The indices of the rows the query keeps, in its order; `errors` names filters that could not be read. */
  view(query: TableQuery): { indices: number[]; errors: Record<string, string> } {
    const tests: { column: ColumnSpec<R>; test: (cell: Cell) => boolean }[] = [];
    const errors: Record<string, string> = {};
    for (const column of this.columns) {
      const compiled = compileFilter(column.filter, query.filters[column.id] ?? '');
      if (compiled === null) continue;
      if ('error' in compiled) errors[column.id] = compiled.error;
      else tests.push({ column, test: compiled.test });
    }
    const needle = query.search.trim().toLowerCase();
    const haystacks = needle === '' ? null : this.#haystacks();
    const order = this.#order(query.sort);
    const indices: number[] = [];
    const count = this.rows.length;
    for (let position = 0; position < count; position++) {
      const index = order === null ? position : (order[position] as number);
      if (haystacks !== null && !(haystacks[index] as string).includes(needle)) continue;
      const row = this.rows[index] as R;
      if (tests.every(({ column, test }) => test(column.value(row)))) indices.push(index);
    }
    return { indices, errors };
  }

  #haystacks(): string[] {
    this.#searchText ??= this.rows.map((row) =>
      this.#searchColumns
        .map((column) => column.value(row) ?? '')
        .join('\n')
        .toLowerCase(),
    );
    return this.#searchText;
  }

  #order(sort: SortState | null): Uint32Array | null {
    if (sort === null) return null;
    const column = this.column(sort.column);
    if (column === undefined) return null;
    const key = `${sort.column}\n${sort.direction}`;
    if (this.#sorted?.key === key) return this.#sorted.order;
    const cells = this.rows.map((row) => column.value(row));
    const sign = sort.direction === 'asc' ? 1 : -1;
    const order = Uint32Array.from(cells.keys());
    // Empty cells go last either way; equal cells keep row order (stable in both directions).
    order.sort((a, b) => {
      const x = cells[a] as Cell;
      const y = cells[b] as Cell;
      if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
      return sign * compareCells(x, y) || a - b;
    });
    this.#sorted = { key, order };
    return order;
  }
}
