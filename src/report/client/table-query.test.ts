import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type ColumnSpec,
  compileFilter,
  type FilterKind,
  selectOptions,
  TableModel,
  type TableQuery,
} from './table-query.ts';

test('compileFilter: each kind of filter text against cells', () => {
  const cases: [FilterKind, string, (string | number | null)[], boolean[]][] = [
    ['text', 'BLOG', ['/blog/a', '/about', null], [true, false, false]],
    ['select', 'v:noindex-meta', ['noindex-meta', 'noindex', null], [true, false, false]],
    ['select', 'n', ['x', null], [false, true]],
    ['select', 'v:3', [3, 4, '3'], [true, false, true]],
    ['status', 'c:4', [404, 410, 500, null], [true, true, false, false]],
    ['status', 'v:404', [404, 410], [true, false]],
    ['range', '3', [3, 4, null], [true, false, false]],
    ['range', '>2', [2, 3], [false, true]],
    ['range', '>=2', [1, 2], [false, true]],
    ['range', '< 2', [1, 2], [true, false]],
    ['range', '<=2', [2, 3], [true, false]],
    ['range', '1..3', [0, 1, 3, 4], [false, true, true, false]],
    ['range', '1-3', [0, 2, 4], [false, true, false]],
    ['range', '4xx', [399, 400, 499, 500], [false, true, true, false]],
    ['range', '-1', [-1, 1], [true, false]],
  ];
  for (const [kind, text, cells, expected] of cases) {
    const compiled = compileFilter(kind, text);
    assert.ok(compiled !== null && 'test' in compiled, `${kind} ${text}`);
    assert.deepEqual(
      cells.map((cell) => compiled.test(cell)),
      expected,
      `${kind} ${text}`,
    );
  }
  assert.equal(compileFilter('range', '  '), null);
  assert.ok('error' in (compileFilter('range', 'lots') ?? {}));
});

interface Row {
  readonly url: string;
  readonly title: string | null;
  readonly status: number | null;
  readonly depth: number;
}
const columns: ColumnSpec<Row>[] = [
  { id: 'url', label: 'URL', filter: 'text', width: 100, value: (r) => r.url },
  { id: 'title', label: 'Title', filter: 'text', width: 100, value: (r) => r.title },
  { id: 'status', label: 'Status', filter: 'status', width: 50, value: (r) => r.status },
  { id: 'depth', label: 'Depth', filter: 'range', width: 50, value: (r) => r.depth },
];
const rows: Row[] = [
  { url: '/a', title: 'Alpha', status: 200, depth: 1 },
  { url: '/b', title: null, status: 404, depth: 2 },
  { url: '/c', title: 'Gamma blog', status: 200, depth: 1 },
  { url: '/blog', title: 'Blog', status: null, depth: 0 },
  { url: '/d', title: 'Delta', status: 500, depth: 2 },
];

test('TableModel.view: search, filters and sort together, stable, empty cells last', () => {
  const model = new TableModel(rows, columns, ['url', 'title']);
  const cases: [Partial<TableQuery>, number[]][] = [
    [{}, [0, 1, 2, 3, 4]],
    [{ search: 'BLOG' }, [2, 3]],
    [{ filters: { status: 'c:2' } }, [0, 2]],
    [{ filters: { status: 'n' } }, [3]],
    [{ filters: { depth: '>=1', status: 'c:2' } }, [0, 2]],
    [{ sort: { column: 'depth', direction: 'asc' } }, [3, 0, 2, 1, 4]],
    [{ sort: { column: 'depth', direction: 'desc' } }, [1, 4, 0, 2, 3]],
    [{ sort: { column: 'status', direction: 'asc' } }, [0, 2, 1, 4, 3]],
    [{ sort: { column: 'status', direction: 'desc' } }, [4, 1, 0, 2, 3]],
    [{ sort: { column: 'title', direction: 'asc' } }, [0, 3, 4, 2, 1]],
    [
      { search: 'a', sort: { column: 'depth', direction: 'desc' }, filters: { depth: '1..2' } },
      [4, 0, 2],
    ],
    [{ filters: { depth: 'nonsense' } }, [0, 1, 2, 3, 4]],
  ];
  for (const [query, expected] of cases) {
    const { indices } = model.view({ search: '', filters: {}, sort: null, ...query });
    assert.deepEqual(indices, expected, JSON.stringify(query));
  }
  assert.deepEqual(model.view({ search: '', filters: { depth: 'nonsense' }, sort: null }).errors, {
    depth: 'use a number, <n, <=n, >n, >=n, a..b or 4xx',
  });
});

test('selectOptions: status classes before codes, values with counts, (none) last', () => {
  const status = columns[2] as ColumnSpec<Row>;
  assert.deepEqual(selectOptions(rows, status), [
    { value: 'c:2', label: '2xx', count: 2 },
    { value: 'c:4', label: '4xx', count: 1 },
    { value: 'c:5', label: '5xx', count: 1 },
    { value: 'v:200', label: '200', count: 2 },
    { value: 'v:404', label: '404', count: 1 },
    { value: 'v:500', label: '500', count: 1 },
    { value: 'n', label: '(none)', count: 1 },
  ]);
  const title: ColumnSpec<Row> = { ...(columns[1] as ColumnSpec<Row>), filter: 'select' };
  assert.deepEqual(
    selectOptions(rows, title).map((option) => option.value),
    ['v:Alpha', 'v:Blog', 'v:Delta', 'v:Gamma blog', 'n'],
  );
});

test('TableModel.view stays linear: 100,000 rows filtered, searched and sorted', () => {
  const many: Row[] = Array.from({ length: 100_000 }, (_, index) => ({
    url: `/page-${index}`,
    title: index % 2 === 0 ? `Even ${index}` : null,
    status: index % 10 === 0 ? 404 : 200,
    depth: index % 7,
  }));
  const model = new TableModel(many, columns, ['url', 'title']);
  const { indices } = model.view({
    search: 'even',
    filters: { status: 'c:4' },
    sort: { column: 'depth', direction: 'desc' },
  });
  assert.equal(indices.length, 10_000);
  assert.equal(many[indices[0] as number]?.depth, 6);
});
