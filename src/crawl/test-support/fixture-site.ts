import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../../http/test-support/test-server.ts';

/**
 * A small site with the traps a crawler meets: a calendar with endless "next month" links,
 * redirects (a chain, a loop, one off the origin), noindex by meta and by header, a
 * canonical pointing elsewhere, 404 and 500 pages, a PDF, a page robots.txt disallows, a
 * tracking-parameter link, a stalled page and a sitemap index with a gzip part naming an
 * orphan (a page no link reaches). `expectedSitemap` is the exact right answer.
 */
export interface FixtureSite {
  readonly server: TestServer;
  readonly url: (path: string) => string;
  readonly expectedSitemap: readonly string[];
  close(): Promise<void>;
}

const html = (body: string, head = '') =>
  `<!doctype html><html><head><meta charset="utf-8">${head}<title>t</title></head><body>${body}</body></html>`;

export async function startFixtureSite(
  options: { robots?: string; robotsStatus?: number } = {},
): Promise<FixtureSite> {
  let origin = '';
  const page =
    (body: string, head = '', headers: Record<string, string | string[]> = {}) =>
    (_: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'last-modified': 'Tue, 02 Jan 2024 03:04:05 GMT',
        ...headers,
      });
      res.end(html(body, head));
    };
  const redirect =
    (to: () => string, status = 301) =>
    (_: IncomingMessage, res: ServerResponse) => {
      res.writeHead(status, { location: to() });
      res.end();
    };
  const robots =
    options.robots ??
    'User-agent: *\nDisallow: /private/\nDisallow: /*.pdf$\n\nSitemap: /sitemap_index.xml\n';
  const urlset = (paths: string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}</urlset>`;
  const server = await startTestServer({
    '/robots.txt': (_, res) => {
      res.writeHead(options.robotsStatus ?? 200, { 'content-type': 'text/plain' });
      // Sitemap lines must be absolute; the origin is only known once listening.
      res.end(robots.replaceAll('Sitemap: /', `Sitemap: ${origin}/`));
    },
    '/': page(
      [
        '<a href="/about">About</a>',
        '<a href="/blog/">Blog</a>',
        '<a href="/calendar/2024-01">Calendar</a>',
        '<a href="/old">Old</a>',
        '<a href="/loop-a">Loop</a>',
        '<a href="/away">Away</a>',
        '<a href="/hidden">Hidden</a>',
        '<a href="/hidden-header">Hidden 2</a>',
        '<a href="/print">Print</a>',
        '<a href="/missing">Missing</a>',
        '<a href="/broken">Broken</a>',
        '<a href="/report.pdf">Report</a>',
        '<a href="/private/data">Private</a>',
        '<a href="/about?utm_source=x#team">About again</a>',
        '<a href="https://elsewhere.example/">Elsewhere</a>',
        '<a href="/slow">Slow</a>',
        '<a href="mailto:a@b.c">Mail</a>',
        '<script>var a = "<a href=/from-script>x</a>";</script>',
      ].join(''),
    ),
    '/about': page('<a href="/">Home</a>'),
    '/blog/': page('<a href="/blog/post-1">1</a><a href="/blog/post-2">2</a>'),
    '/blog/post-1': page('<a href="/blog/">Blog</a>'),
    '/blog/post-2': page('<a href="/blog/post-1">1</a>'),
    // The calendar trap: every month links to the next, forever.
    '*': (req, res) => {
      const month = /^\/calendar\/(\d{4})-(\d{2})$/.exec(req.url ?? '');
      if (month === null) {
        res.writeHead(404).end('not found');
        return;
      }
      const next = new Date(Date.UTC(Number(month[1]), Number(month[2]), 1))
        .toISOString()
        .slice(0, 7);
      page(`<a href="/calendar/${next}">next month</a>`)(req, res);
    },
    '/old': redirect(() => '/older'),
    '/older': redirect(() => `${origin}/new`, 302),
    '/new': page('new home'),
    '/loop-a': redirect(() => '/loop-b'),
    '/loop-b': redirect(() => '/loop-a'),
    '/away': redirect(() => 'https://elsewhere.example/landing'),
    '/hidden': page('secret', '<meta name="robots" content="noindex, follow">'),
    // Two fields: the first one's bot prefix does not reach into the second.
    '/hidden-header': page('<a href="/from-hidden">x</a>', '', {
      'x-robots-tag': ['bingbot: nofollow', 'noindex'],
    }),
    '/from-hidden': page('reached through a noindex page'),
    '/print': page('print view', `<link rel="canonical" href="/about">`),
    '/missing': { status: 404, body: 'not found' },
    '/broken': { status: 500, body: 'oops' },
    '/report.pdf': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4' },
    '/private/data': page('private'),
    '/orphan': page('only the sitemap links here'),
    '/slow': () => {},
    '/sitemap_index.xml': (_, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/sitemap-1.xml.gz</loc></sitemap></sitemapindex>`,
      );
    },
    '/sitemap-1.xml.gz': (_, res) => {
      res.writeHead(200, { 'content-type': 'application/gzip' });
      res.end(gzipSync(urlset(['/', '/orphan', '/about'])));
    },
  });
  origin = server.origin;
  return {
    server,
    url: (path) => `${origin}${path}`,
    // With maxDepth 3: the calendar is followed three months deep.
    expectedSitemap: [
      '/',
      '/about',
      '/blog/',
      '/blog/post-1',
      '/blog/post-2',
      '/calendar/2024-01',
      '/calendar/2024-02',
      '/calendar/2024-03',
      '/from-hidden',
      '/new',
      '/orphan',
    ].map((p) => `${origin}${p}`),
    close: () => server.close(),
  };
}
