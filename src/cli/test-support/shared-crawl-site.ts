import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../../http/test-support/test-server.ts';

export interface SharedCrawlSiteOptions {
  /** Pages `/` (page 0) and `/p/1` .. `/p/<pages - 1>`. */
  readonly pages: number;
  /** robots.txt's `Crawl-delay`, in seconds, when given. */
  readonly crawlDelay?: number;
  /** Paths answering `503` with `Retry-After: 1` the first time they are asked for. */
  readonly unavailableOnce?: readonly string[];
  /**
   * What a crawl meets on a real site, so its summary has something under every heading: a
   * sitemap index (with a gzip part) naming the start page, the even pages and two orphans
   * (pages no link reaches); redirects (a chain of two, a loop, one off the origin, one of 12
   * hops: more than the crawl follows); noindex by header too; a canonical elsewhere; a
   * tracking parameter; a PDF; a 500; a dropped connection; RSS and Atom feeds and a
   * feed-looking link that is none; a chain of links `/deep/1` .. `/deep/10` from
   * the start page. With at most 31 pages and `--max-depth 5`, only that chain is cut short
   * (one link, from `/deep/5`): every other page is at most 5 deep however it was found. (In
   * a deeper tree a page's depth, and so what is cut, depends on whether a link or the
   * sitemap found it first, which differs from one run to the next.)
   */
  readonly traps?: boolean;
}

/** A site for several crawl workers at once, whose page answers a test can hold back. */
export interface SharedCrawlSite {
  readonly server: TestServer;
  url(path?: string): string;
  /**
   * Page requests (`/` and `/p/N`) after the next `answered` ones are held unanswered until
   * {@link release}: so a test knows that every worker has pages in flight.
   */
  holdAfter(answered: number): void;
  /** Resolves once `count` page requests are held. */
  whenHeld(count: number): Promise<void>;
  /** Answers the held requests and holds no more. */
  release(): void;
  /** How many times each path was requested, from request `from` of the log on. */
  requestCounts(from?: number): Map<string, number>;
  close(): Promise<void>;
}

const html = (body: string, head = '') =>
  `<!doctype html><html><head><meta charset="utf-8">${head}<title>t</title></head><body>${body}</body></html>`;

/**
 * A tree of pages: page N links to pages 2N+1 and 2N+2; every fifth page also to
 * `/gone/N` (404), every sixth to `/private/N` (disallowed by robots.txt); pages N % 7 = 3
 * are noindex. No page has a Last-Modified, so two crawls of it write the same bytes.
 */
export async function startSharedCrawlSite(
  options: SharedCrawlSiteOptions,
): Promise<SharedCrawlSite> {
  const { pages, traps = false } = options;
  const unavailable = new Set(options.unavailableOnce ?? []);
  let origin = '';
  let toAnswer: number | null = null;
  const held: (() => void)[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];

  const answer = (
    res: ServerResponse,
    status: number,
    headers: Record<string, string>,
    body: string | Uint8Array,
  ) => {
    res.writeHead(status, headers).end(body);
  };
  const htmlPage = (
    res: ServerResponse,
    body: string,
    head = '',
    headers: Record<string, string> = {},
  ) =>
    answer(res, 200, { 'content-type': 'text/html; charset=utf-8', ...headers }, html(body, head));

  function treePage(n: number, res: ServerResponse): void {
    const links = [2 * n + 1, 2 * n + 2]
      .filter((k) => k < pages)
      .map((k) => `<a href="/p/${k}">${k}</a>`);
    if (n % 5 === 0) links.push(`<a href="/gone/${n}">gone</a>`);
    if (n % 6 === 0) links.push(`<a href="/private/${n}">private</a>`);
    let head = n % 7 === 3 ? '<meta name="robots" content="noindex">' : '';
    const headers: Record<string, string> = {};
    if (traps) {
      if (n === 0) {
        links.push(
          '<a href="/old">old</a><a href="/loop-a">loop</a><a href="/away">away</a>',
          '<a href="/chain/1">chain</a><a href="/deep/1">deep</a>',
          '<a href="/report.pdf">report</a><a href="/broken">broken</a><a href="/reset">reset</a>',
          '<a href="/print">print</a><a href="/p/1?utm_source=x#top">again</a>',
        );
        head += '<link rel="alternate" type="application/rss+xml" href="/feeds/fake.rss">';
      }
      if (n % 8 === 1) links.push(`<a href="/moved/${n}">moved</a>`);
      if (n % 9 === 2)
        head += `<link rel="alternate" type="application/rss+xml" href="/feeds/${n}.rss">`;
      if (n % 9 === 5)
        head += `<link rel="alternate" type="application/atom+xml" href="/feeds/${n}.atom">`;
      if (n % 10 === 4) headers['x-robots-tag'] = 'noindex';
    }
    htmlPage(res, links.join(''), head, headers);
  }

  function page(n: number, path: string, res: ServerResponse): void {
    if (unavailable.delete(path)) {
      answer(res, 503, { 'retry-after': '1', 'content-type': 'text/plain' }, 'busy');
      return;
    }
    const go = () => treePage(n, res);
    if (toAnswer !== null && toAnswer-- <= 0) {
      held.push(go);
      for (const waiter of waiters.filter((w) => held.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      return;
    }
    go();
  }

  const feed = (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/feeds\/(\d+)\.(rss|atom)$/.exec(req.url ?? '');
    if (match === null) {
      htmlPage(res, 'a page, not a feed');
      return;
    }
    const entry = `${origin}/p/${match[1]}`;
    const body =
      match[2] === 'rss'
        ? `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>${origin}/</link><item><link>${entry}</link></item></channel></rss>`
        : `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><entry><link href="${entry}"/></entry></feed>`;
    answer(res, 200, { 'content-type': `application/${match[2]}+xml` }, body);
  };

  const urlset = (paths: readonly string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}</urlset>`;
  const named = ['/', '/orphan/1', '/orphan/2'];
  for (let n = 2; n < pages; n += 2) named.push(`/p/${n}`);

  const notFound = (res: ServerResponse) =>
    answer(res, 404, { 'content-type': 'text/plain' }, 'not found');
  /** Paths `/<kind>/<n>`. */
  const numbered: Record<string, (n: number, path: string, res: ServerResponse) => void> = {
    p: (n, path, res) => (n < pages ? page(n, path, res) : notFound(res)),
    ...(traps
      ? {
          moved: (_n: number, _path: string, res: ServerResponse) =>
            htmlPage(res, '<a href="/">home</a>'),
          orphan: (_n: number, _path: string, res: ServerResponse) =>
            htmlPage(res, 'only the sitemap leads here'),
          deep: (k: number, _path: string, res: ServerResponse) =>
            htmlPage(res, k < 10 ? `<a href="/deep/${k + 1}">deeper</a>` : 'the end'),
          chain: (k: number, _path: string, res: ServerResponse) =>
            k < 12
              ? answer(res, 301, { location: `/chain/${k + 1}` }, '')
              : htmlPage(res, 'the end of a long chain'),
        }
      : {}),
  };

  const server = await startTestServer({
    '/robots.txt': (_, res) => {
      const lines = ['User-agent: *', 'Disallow: /private/'];
      if (options.crawlDelay !== undefined) lines.push(`Crawl-delay: ${options.crawlDelay}`);
      if (traps) lines.push('', `Sitemap: ${origin}/sitemap_index.xml`);
      answer(res, 200, { 'content-type': 'text/plain' }, `${lines.join('\n')}\n`);
    },
    '/': (req, res) => page(0, req.url ?? '/', res),
    ...(traps
      ? {
          '/sitemap_index.xml': (_: IncomingMessage, res: ServerResponse) =>
            answer(
              res,
              200,
              { 'content-type': 'application/xml' },
              `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/sitemap-1.xml.gz</loc></sitemap></sitemapindex>`,
            ),
          '/sitemap-1.xml.gz': (_: IncomingMessage, res: ServerResponse) =>
            answer(res, 200, { 'content-type': 'application/gzip' }, gzipSync(urlset(named))),
          '/old': (_: IncomingMessage, res: ServerResponse) =>
            answer(res, 301, { location: '/older' }, ''),
          '/older': (_: IncomingMessage, res: ServerResponse) =>
            answer(res, 302, { location: `${origin}/moved/0` }, ''),
          '/loop-a': (_: IncomingMessage, res: ServerResponse) =>
            answer(res, 301, { location: '/loop-b' }, ''),
          '/loop-b': (_: IncomingMessage, res: ServerResponse) =>
            answer(res, 301, { location: '/loop-a' }, ''),
          '/away': (_: IncomingMessage, res: ServerResponse) =>
            answer(res, 301, { location: 'https://elsewhere.example/' }, ''),
          '/report.pdf': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4' },
          '/broken': { status: 500, body: 'oops' },
          '/reset': (req: IncomingMessage) => req.socket.destroy(),
          '/print': (_: IncomingMessage, res: ServerResponse) =>
            htmlPage(res, 'print view', '<link rel="canonical" href="/p/1">'),
        }
      : {}),
    '*': (req, res) => {
      const path = req.url ?? '/';
      if (traps && path.startsWith('/feeds/')) {
        feed(req, res);
        return;
      }
      const match = /^\/(\w+)\/(\d+)$/.exec(path);
      const route = match === null ? undefined : numbered[match[1] as string];
      if (route === undefined) notFound(res);
      else route(Number(match?.[2]), path, res);
    },
  });
  origin = server.origin;

  return {
    server,
    url: (path = '/') => `${origin}${path}`,
    holdAfter(answered) {
      toAnswer = answered;
    },
    whenHeld(count) {
      if (held.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    release() {
      toAnswer = null;
      for (const go of held.splice(0)) go();
    },
    requestCounts(from = 0) {
      const counts = new Map<string, number>();
      for (const { path } of server.requests.slice(from))
        counts.set(path, (counts.get(path) ?? 0) + 1);
      return counts;
    },
    close: () => {
      // Held requests are dropped with their connections.
      held.length = 0;
      return server.close();
    },
  };
}
