import { startTestServer, type TestServer } from '../../http/test-support/test-server.ts';

export interface TreeSiteOptions {
  /** Pages /p/0 .. /p/<pages - 1> (default 120). */
  readonly pages?: number;
  /** Milliseconds before each page answers, to keep several requests in flight (default 5). */
  readonly latencyMs?: number;
  /** Called for every page request, before it answers. */
  readonly onPage?: (path: string) => void;
}

/**
 * A tree of pages on 127.0.0.1 with a left-out URL of each common kind, so a crawl's
 * summary has something under every heading: `/` and `/p/N` link to `/p/2N+1` and
 * `/p/2N+2`; every fifth page also links to `/gone/N` (404), every sixth to `/private/N`
 * (disallowed by robots.txt), and pages N % 7 = 3 are noindex.
 */
export async function startTreeSite(options: TreeSiteOptions = {}): Promise<TestServer> {
  const pages = options.pages ?? 120;
  const latency = options.latencyMs ?? 5;
  return startTestServer({
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\n',
    },
    '*': (req, res) => {
      const path = req.url ?? '/';
      const match = /^\/p\/(\d+)$/.exec(path);
      const n = match === null ? (path === '/' ? 0 : -1) : Number(match[1]);
      if (n < 0 || n >= pages) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      options.onPage?.(path);
      const links = [2 * n + 1, 2 * n + 2]
        .filter((k) => k < pages)
        .map((k) => `<a href="/p/${k}">${k}</a>`);
      if (n % 5 === 0) links.push(`<a href="/gone/${n}">gone</a>`);
      if (n % 6 === 0) links.push(`<a href="/private/${n}">private</a>`);
      const head = n % 7 === 3 ? '<meta name="robots" content="noindex">' : '';
      setTimeout(() => {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<html><head>${head}</head><body>${links.join('')}</body></html>`);
      }, latency);
    },
  });
}
