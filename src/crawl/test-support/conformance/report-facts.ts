// What the crawl report reads beside each URL's outcome: the response's facts, and how often
// links and sitemaps named the URL (see CrawlState.add), counted alike by every state and
// by every worker of one crawl.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  CrawlResultFields,
  CrawlState,
  FrontierItem,
  ResponseFacts,
  TakenItem,
} from '../../crawl-state.ts';
import { MAX_COUNTED_INLINKS } from '../../internal/report-counts.ts';
import type { ConformanceTarget } from '../crawl-state-conformance.ts';
import { A, crawlIn, drain, finished, LISTED, page, START, settle, step, take } from './helpers.ts';

const SITEMAP = 'https://a.test/sitemap.xml';

/** A link from a crawled page to `/path`. */
function link(path: string, extra: Partial<FrontierItem> = {}): FrontierItem {
  return page(`https://a.test/${path}`, { depth: 1, via: START, ...extra });
}

/** An entry of the site's sitemap naming `/path`, with its `<lastmod>` when given. */
function entry(path: string, lastmod?: string, extra: Partial<FrontierItem> = {}): FrontierItem {
  const item = link(path, { kind: 'sitemap', via: SITEMAP, ...extra });
  return lastmod === undefined ? item : { ...item, lastmod };
}

/** Each result's path with its counts: [path, inlinks, sitemaps, sitemapLastmod]. */
async function counted(state: CrawlState): Promise<unknown[][]> {
  const rows = [];
  for await (const r of state.results()) {
    rows.push([new URL(r.url).pathname, r.inlinks, r.sitemaps, r.sitemapLastmod]);
  }
  return rows;
}

const FACTS: readonly { name: string; facts: ResponseFacts | null | undefined }[] = [
  {
    name: 'every fact',
    facts: {
      title: 'Say "hi" – Ünïcödé 👋',
      contentType: 'text/html',
      lastModified: '2024-05-01T10:00:00.000Z',
      ms: 42,
    },
  },
  {
    name: 'some',
    facts: { title: null, contentType: 'application/pdf', lastModified: null, ms: 0 },
  },
  { name: 'none known', facts: { title: null, contentType: null, lastModified: null, ms: null } },
  { name: 'null', facts: null },
  { name: 'absent', facts: undefined },
];

/**
 * The counting rule, move by move on one crawl: each move's items are added (`add`) or found
 * by the result of the item taken next (`found`).
 */
const MOVES: readonly { what: string; via: 'add' | 'found'; items: FrontierItem[] }[] = [
  { what: 'the start URL (via null) is not a link', via: 'add', items: [page(START)] },
  { what: 'a new URL', via: 'add', items: [link('x')] },
  { what: 'a URL known already', via: 'add', items: [link('x')] },
  { what: 'a duplicate in one batch, new', via: 'add', items: [link('dup'), link('dup')] },
  { what: 'a duplicate in one batch, known', via: 'add', items: [link('x'), link('x')] },
  { what: "a redirect's target, new", via: 'add', items: [link('hop', { redirects: 1 })] },
  { what: "a redirect's target, known", via: 'add', items: [link('x', { redirects: 2 })] },
  { what: 'a sitemap entry with its lastmod', via: 'add', items: [entry('s', '2024-01-01')] },
  {
    what: 'named again, the first lastmod is kept',
    via: 'add',
    items: [entry('s', '2025-01-01'), entry('s')],
  },
  {
    what: 'no lastmod first: the first one given is kept',
    via: 'add',
    items: [entry('t'), entry('t', '2024-03-03')],
  },
  { what: 'and stays', via: 'add', items: [entry('t', '2020-01-01')] },
  { what: 'a linked URL also in a sitemap', via: 'add', items: [entry('x')] },
  {
    what: "a sitemap redirect's target",
    via: 'add',
    items: [entry('moved', '2024-01-01', { redirects: 1 })],
  },
  {
    what: 'found by a result: known, new twice, itself, a redirect, a sitemap entry',
    via: 'found',
    items: [
      link('x'),
      link('y'),
      link('y'),
      page(START, { depth: 1, via: START }),
      link('hop2', { redirects: 1 }),
      entry('u', '2023-01-01'),
    ],
  },
  { what: 'found again by the next result', via: 'found', items: [link('x'), link('y')] },
];

const COUNTED = [
  ['/', 1, 0, null],
  ['/dup', 2, 0, null],
  ['/hop', 0, 0, null],
  ['/hop2', 0, 0, null],
  ['/moved', 0, 0, null],
  ['/s', 0, 3, '2024-01-01'],
  ['/t', 0, 3, '2024-03-03'],
  ['/u', 0, 1, '2023-01-01'],
  ['/x', 6, 1, null],
  ['/y', 3, 0, null],
];

export function reportFacts(target: ConformanceTarget): void {
  const withCrawl = crawlIn(target);

  describe('for the crawl report', () => {
    it('facts are recorded with a result and read back; null or absent ones as null', async () => {
      await withCrawl(0, async (state) => {
        await state.add(FACTS.map((_, i) => page(`https://a.test/${i}`)));
        await settle(state, A, 0);
        const { taken } = await take(state, FACTS.length);
        assert.equal(taken.length, FACTS.length);
        await step(state, {
          finished: taken.map((item) => {
            const { facts } = FACTS[Number(new URL(item.url).pathname.slice(1))] ?? assert.fail();
            const result: CrawlResultFields = facts === undefined ? LISTED : { ...LISTED, facts };
            return finished(item, { result });
          }),
        });
        const read = new Map<string, unknown>();
        for await (const r of state.results()) read.set(r.url, r.facts);
        for (const [i, { name, facts }] of FACTS.entries()) {
          assert.deepEqual(read.get(`https://a.test/${i}`), facts ?? null, name);
        }
      });
    });

    it('every link and sitemap entry counts, new or known; redirects and seeds do not', async () => {
      await withCrawl(0, async (state) => {
        for (const { what, via, items } of MOVES) {
          if (via === 'add') {
            await state.add(items);
            continue;
          }
          if ((await state.robots(A)) === null) await settle(state, A, 0);
          const [item] = (await take(state, 1)).taken;
          assert.ok(item, what);
          const done = await step(state, { finished: [finished(item, { discovered: items })] });
          assert.equal(done.lost, 0, what);
        }
        await drain(state);
        assert.deepEqual(await counted(state), COUNTED);
      });
    });

    it(`in-links are counted up to ${MAX_COUNTED_INLINKS}, new or known, added or found`, async () => {
      await withCrawl(0, async (state) => {
        const many = (path: string, n: number) => Array.from({ length: n }, () => link(path));
        // New and past the cap in one batch; known and crossing it; known and at it already.
        await state.add(many('new', MAX_COUNTED_INLINKS + 5));
        await state.add(many('crossing', MAX_COUNTED_INLINKS - 1));
        await state.add(many('crossing', 3));
        await state.add([...many('new', 2), entry('new')]);
        await settle(state, A, 0);
        const [item] = (await take(state, 1)).taken;
        assert.ok(item);
        await step(state, { finished: [finished(item, { discovered: many('crossing', 2) })] });
        await drain(state);
        assert.deepEqual(await counted(state), [
          ['/crossing', MAX_COUNTED_INLINKS, 0, null],
          ['/new', MAX_COUNTED_INLINKS, 1, null],
        ]);
      });
    });

    it('the links of a lost result count nothing', async () => {
      await withCrawl(0, async (state) => {
        await state.add([page(START), link('x')]);
        await settle(state, A, 0);
        const [stale] = (await take(state, 1)).taken;
        assert.ok(stale);
        const [current] = (
          await step(state, { released: [{ item: stale, notBefore: null }], take: 1 })
        ).taken;
        const late = await step(state, {
          finished: [finished(stale, { discovered: [link('x'), link('x'), entry('gone')] })],
        });
        assert.equal(late.lost, 1);
        await step(state, {
          finished: [finished(current as TakenItem, { discovered: [link('x')] })],
        });
        await drain(state);
        assert.deepEqual(await counted(state), [
          ['/', 0, 0, null],
          ['/x', 2, 0, null],
        ]);
      });
    });

    // Declared only where there is a second worker (SQLite has one process), as two-workers.ts.
    if (target.second !== undefined)
      it('two workers: their counts add up', async () => {
        await withCrawl(0, async (one) => {
          const two = await (target.second as NonNullable<ConformanceTarget['second']>)(one);
          try {
            const pages = [1, 2, 3, 4, 5, 6].map((i) => page(`https://a.test/p${i}`));
            await one.add([page(START), link('x'), ...pages]);
            // Known to the crawl, each worker knowing it or not: twice each, together.
            await Promise.all(
              [one, two, one, two].map((state) => state.add([link('x'), link('y'), entry('y')])),
            );
            await settle(one, A, 0);
            const mine = await take(one, 4);
            const theirs = await take(two, 4);
            assert.equal(mine.taken.length + theirs.taken.length, 8);
            const found = (state: CrawlState, taken: readonly TakenItem[]) =>
              step(state, {
                finished: taken.map((item) => finished(item, { discovered: [link('x')] })),
              });
            await Promise.all([found(one, mine.taken), found(two, theirs.taken)]);
            await drain(one);
            const rows = new Map((await counted(one)).map(([path, ...rest]) => [path, rest]));
            assert.deepEqual(rows.get('/x'), [1 + 4 + 8, 0, null]);
            assert.deepEqual(rows.get('/y'), [4, 4, null]);
          } finally {
            await two.close();
          }
        });
      });
  });
}
