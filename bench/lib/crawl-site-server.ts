// The crawl benchmark's site, served on 127.0.0.1 by a process of its own, so serving it
// never shares a core's event loop with the crawler being measured. `startSite` forks this
// module; the child builds the model, renders every page up front (so a request costs only a
// write) and answers the parent over IPC: the true sitemap, request counts per crawl, and
// why a URL is wrong. Run as a script, it is that child.

import { fork } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildSite, isDisallowed, type Site } from './crawl-site.ts';
import { lastModified, renderPage, renderRobots, sitemapFiles } from './crawl-site-html.ts';
import { explainUrls, trueSitemap } from './crawl-site-truth.ts';

const SCRIPT = fileURLToPath(import.meta.url);

export interface SiteSummary {
  /** Content pages asked for. */
  readonly pages: number;
  /** Every URL the site answers (pages, hubs, redirects, 404s, files), without static files. */
  readonly urls: number;
  readonly htmlBytes: number;
  readonly sitemapEntries: number;
  readonly traps: Readonly<Record<string, number>>;
  readonly buildMs: number;
}

/** What the server saw of one crawl. */
export interface CrawlStats {
  readonly requests: number;
  /** 200 HTML responses: the pages fetched. */
  readonly htmlPages: number;
  /** Requests per kind of answer (html, robots, sitemap, redirect, missing, pdf, static). */
  readonly byKind: Readonly<Record<string, number>>;
  /** Requests for a URL (as sent) that had already been requested in this crawl. */
  readonly repeats: number;
  /** Requests for disallowed paths. */
  readonly disallowed: number;
  /** Most connections open at once. */
  readonly maxConnections: number;
  /** Connections opened. */
  readonly connections: number;
  readonly bytes: number;
}

type Request =
  | { readonly type: 'reset' }
  | { readonly type: 'stats' }
  | { readonly type: 'explain'; readonly urls: readonly string[]; readonly missed: boolean }
  | { readonly type: 'close' };

interface Envelope {
  readonly id: number;
  readonly request: Request;
}

interface Ready {
  readonly type: 'ready';
  readonly origin: string;
  readonly summary: SiteSummary;
  readonly truth: readonly string[];
}

export interface SiteHandle {
  readonly origin: string;
  readonly summary: SiteSummary;
  /** Full URLs, sorted. */
  readonly truth: readonly string[];
  reset(): Promise<void>;
  stats(): Promise<CrawlStats>;
  explain(urls: readonly string[], missed: boolean): Promise<string[]>;
  close(): Promise<void>;
}

/** Forks the site process for `pages` content pages; resolves once it listens. */
export function startSite(pages: number): Promise<SiteHandle> {
  const child = fork(SCRIPT, [String(pages)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let nextId = 0;
  const waiting = new Map<number, (reply: unknown) => void>();
  // With a callback, a send on a closed channel (the site process died, e.g. of a Ctrl-C to
  // the whole process group) rejects the call instead of emitting an 'error' nobody handles.
  const ask = <T>(request: Request): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, resolve as (reply: unknown) => void);
      child.send({ id, request } satisfies Envelope, (error) => {
        if (error === null) return;
        waiting.delete(id);
        reject(error);
      });
    });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the site process exited (${code})`)));
    child.on('message', (message: { id?: number; reply?: unknown } | Ready) => {
      if ('type' in message && message.type === 'ready') {
        resolve({
          origin: message.origin,
          summary: message.summary,
          truth: message.truth,
          reset: () => ask<void>({ type: 'reset' }),
          stats: () => ask<CrawlStats>({ type: 'stats' }),
          explain: (urls, missed) => ask<string[]>({ type: 'explain', urls, missed }),
          close: async () => {
            if (child.exitCode !== null || child.signalCode !== null) return;
            const exited = new Promise((done) => child.once('exit', done));
            // A closed channel: the process is ending anyway.
            child.send({ id: -1, request: { type: 'close' } } satisfies Envelope, () => {});
            await exited;
          },
        });
        return;
      }
      if ('id' in message && message.id !== undefined) {
        waiting.get(message.id)?.(message.reply);
        waiting.delete(message.id);
      }
    });
  });
}

interface Body {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly kind: string;
}

const TRACKING = /^(utm_[^=]*|gclid|fbclid|msclkid)$/i;
const STATIC: Record<string, Body> = {
  '/static/site.css': asset('text/css', 'body{font-family:system-ui}\n'),
  '/static/app.js': asset('text/javascript', 'document.documentElement.classList.add("js");\n'),
  '/favicon.ico': asset('image/x-icon', ''),
};

function asset(type: string, text: string): Body {
  return {
    status: 200,
    headers: { 'content-type': type },
    body: Buffer.from(text),
    kind: 'static',
  };
}

/** The key the model uses for a request target: escapes upper-cased, tracking parameters dropped. */
function keyOf(target: string): { path: string; key: string } {
  const url = new URL(target, 'http://site.invalid');
  const path = url.pathname.replace(/%[0-9a-f]{2}/gi, (hex) => hex.toUpperCase());
  const query = url.search
    .slice(1)
    .split('&')
    .filter((param) => param !== '' && !TRACKING.test(param.split('=', 1)[0] ?? ''))
    .join('&');
  return { path, key: query === '' ? path : `${path}?${query}` };
}

function serve(site: Site, origin: string): (target: string) => Body {
  const bodies = new Map<string, Body>();
  const notFound: Body = {
    status: 404,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: Buffer.from('<!DOCTYPE html><title>Not found</title><h1>Not found</h1>\n'),
    kind: 'missing',
  };
  for (const node of site.nodes.values()) {
    if (node.kind === 'missing') continue;
    if (node.kind === 'redirect') {
      bodies.set(node.key, {
        status: 301,
        headers: { location: node.location ?? '/', 'content-type': 'text/html' },
        body: Buffer.from('<a href="">Moved</a>\n'),
        kind: 'redirect',
      });
    } else if (node.kind === 'pdf') {
      bodies.set(node.key, {
        status: 200,
        headers: { 'content-type': 'application/pdf' },
        body: Buffer.from('%PDF-1.4\n% bench\n%%EOF\n'),
        kind: 'pdf',
      });
    } else {
      const headers: Record<string, string> = {
        'content-type': 'text/html; charset=utf-8',
        'last-modified': lastModified(node),
        'cache-control': 'max-age=300',
      };
      if (node.noindex === 'header') headers['x-robots-tag'] = 'noindex';
      const body = Buffer.from(renderPage(node, site, origin));
      bodies.set(node.key, { status: 200, headers, body, kind: 'html' });
    }
  }
  bodies.set('/robots.txt', {
    status: 200,
    headers: { 'content-type': 'text/plain' },
    body: Buffer.from(renderRobots(origin)),
    kind: 'robots',
  });
  for (const [path, xml] of sitemapFiles(site, origin)) {
    const gzip = path.endsWith('.gz');
    bodies.set(path, {
      status: 200,
      headers: { 'content-type': gzip ? 'application/gzip' : 'application/xml' },
      body: gzip ? gzipSync(xml) : Buffer.from(xml),
      kind: 'sitemap',
    });
  }
  return (target) => {
    const { path, key } = keyOf(target);
    const found = bodies.get(key) ?? STATIC[path];
    if (found !== undefined) return found;
    // Content pages ignore a query they do not know; hubs and everything else do not.
    const page = site.nodes.get(path);
    const byPath = bodies.get(path);
    if (page !== undefined && page.section !== 'hub' && byPath !== undefined) return byPath;
    return notFound;
  };
}

async function serverMain(pages: number): Promise<void> {
  const began = performance.now();
  const site = buildSite(pages);
  let answer: ((target: string) => Body) | null = null;
  let stats = freshStats();
  let seen = new Set<string>();
  let open = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const target = request.url ?? '/';
    const body = answer?.(target) ?? null;
    if (body === null) {
      response.writeHead(503).end();
      return;
    }
    stats.requests++;
    stats.byKind[body.kind] = (stats.byKind[body.kind] ?? 0) + 1;
    if (body.kind === 'html' && body.status === 200) stats.htmlPages++;
    if (seen.has(target)) stats.repeats++;
    else seen.add(target);
    if (isDisallowed(keyOf(target).key)) stats.disallowed++;
    stats.bytes += body.body.length;
    response.writeHead(body.status, {
      ...body.headers,
      'content-length': String(body.body.length),
    });
    response.end(request.method === 'HEAD' ? undefined : body.body);
  });
  server.on('connection', (socket) => {
    open++;
    stats.connections++;
    stats.maxConnections = Math.max(stats.maxConnections, open);
    socket.once('close', () => open--);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  answer = serve(site, origin);
  let htmlBytes = 0;
  for (const node of site.nodes.values()) {
    if (node.kind === 'page') htmlBytes += answer(node.key).body.length;
  }
  const summary: SiteSummary = {
    pages,
    urls: site.nodes.size,
    htmlBytes,
    sitemapEntries: site.sitemapParts.reduce((sum, part) => sum + part.length, 0),
    traps: site.traps,
    buildMs: performance.now() - began,
  };
  const truth = trueSitemap(site).map((key) => origin + key);
  process.send?.({ type: 'ready', origin, summary, truth } satisfies Ready);
  // The bench went away: so does the site.
  process.once('disconnect', () => process.exit(0));
  process.on('message', ({ id, request }: Envelope) => {
    let reply: unknown;
    if (request.type === 'reset') {
      stats = freshStats();
      stats.maxConnections = open;
      seen = new Set();
    } else if (request.type === 'stats') {
      reply = stats;
    } else if (request.type === 'explain') {
      reply = explainUrls(site, origin, request.urls, request.missed);
    } else {
      server.closeAllConnections();
      server.close(() => process.exit(0));
      return;
    }
    process.send?.({ id, reply });
  });
}

function freshStats(): {
  requests: number;
  htmlPages: number;
  byKind: Record<string, number>;
  repeats: number;
  disallowed: number;
  maxConnections: number;
  connections: number;
  bytes: number;
} {
  return {
    requests: 0,
    htmlPages: 0,
    byKind: {},
    repeats: 0,
    disallowed: 0,
    maxConnections: 0,
    connections: 0,
    bytes: 0,
  };
}

if (process.argv[1] === SCRIPT) {
  await serverMain(Number(process.argv[2] ?? '10000'));
}
