import { Buffer } from 'node:buffer';
import { WaymarkError } from '../shared/waymark-error.ts';
import { utf8Length } from '../shared/xml/xml-escape.ts';
import { type Answer, answerResponse, plainAnswer } from './internal/answer.ts';
import { fingerprint, notModified } from './internal/conditional.ts';
import type { SiteDiagnosticsReport } from './internal/diagnostics-reporter.ts';
import { DocumentNames } from './internal/document-names.ts';
import { documentResponse } from './internal/document-response.ts';
import { indexBody } from './internal/index-body.ts';
import { IndexNowPusher, type SiteIndexNowReport } from './internal/indexnow-pusher.ts';
import { type LightRequest, RESPOND_LIGHT, type RespondLight } from './internal/light-request.ts';
import { pollChanges } from './internal/poll-changes.ts';
import { RenderPool } from './internal/render-pool.ts';
import { RenderedPages } from './internal/rendered-pages.ts';
import { requestOrigin } from './internal/request-origin.ts';
import { robotsBody } from './internal/robots-body.ts';
import type { SiteDiagnostic } from './internal/site-index.ts';
import { type SiteState, SiteStateKeeper } from './internal/site-state.ts';
import { SitemapPartChunks } from './internal/sitemap-chunks.ts';
import { originPiece, sitemapLayout, sitemapPlan } from './internal/sitemap-lines.ts';
import type { RevalidateMode } from './page-meta-cache.ts';
import type { SiteConfig } from './site-config.ts';

export type { SiteDiagnostic, SiteDiagnosticsReport, SiteIndexNowReport };

export interface SiteHandlerOptions {
  /** The content root. */
  readonly root: string;
  /** Configuration; wins over the config file key by key. */
  readonly config?: Partial<SiteConfig>;
  /**
   * A `waymark.site.yaml` to read once. Left out: the root's own `waymark.site.yaml`,
   * followed live when present. null: no file.
   */
  readonly configFile?: string | null;
  /** How disk changes are found (default `watch`; see {@link RevalidateMode}). */
  readonly revalidate?: RevalidateMode;
  /**
   * Also serve the documents (what `waymark serve` does): `/` lists the sitemap's pages,
   * each document answers at its alias and `/id/<hex>`. Default false: only robots.txt
   * and the sitemaps, everything else 404.
   */
  readonly serveDocuments?: boolean;
  /**
   * With `serveDocuments`: the time one Markdown document may take to render (default
   * 5,000 ms). Rendering runs in worker threads, so robots.txt and the sitemaps answer
   * meanwhile; past the limit the worker is stopped and the page answers 503 until the
   * file changes.
   */
  readonly renderTimeoutMs?: number;
  /** The clock, epoch ms (default `Date.now`): for tests of `Last-Modified`. */
  readonly now?: () => number;
  /**
   * Told whenever the problems change (what `diagnostics()` returns): the first time with
   * every problem found, then with the problems that are new or whose file changed, and
   * those that are gone. Problems are looked for on every request and, while the handler
   * is open, also about once a second (every 5 s when revalidating by `stat`), so an edit
   * is reported without a request. `waymark serve` prints them.
   */
  readonly onDiagnostics?: (report: SiteDiagnosticsReport) => void;
  /**
   * Told after each IndexNow submission (with `indexnow` in the configuration): the URLs,
   * the status and its meaning, and what is kept for the next try. `waymark serve` prints
   * one line per call.
   */
  readonly onIndexNow?: (report: SiteIndexNowReport) => void;
  /**
   * Told when a document could not be rendered (its worker failed or stopped): the client
   * gets 500 and "the page could not be rendered", never the cause, which is here for the
   * operator. `waymark serve` prints it. A hook that throws is ignored.
   */
  readonly onRenderFailure?: (failure: { readonly path: string; readonly message: string }) => void;
}

/** What a Markdown document may cost by default (marked takes seconds on some inputs). */
const DEFAULT_RENDER_TIMEOUT_MS = 5000;

/** A Web-standard handler that also stops its file watching and reports problems. */
export interface SiteHandler {
  (request: Request): Promise<Response>;
  /** Stops watching the root; later requests fail. */
  close(): Promise<void>;
  /** The current problems (broken sidecars, invalid aliases, config), by document path. */
  diagnostics(): Promise<readonly SiteDiagnostic[]>;
}

const SITEMAP_PART = /^\/sitemaps\/sitemap-(\d{4,})\.xml$/;

/**
 * Serves `robots.txt` and the sitemaps of a content root, generated per request from the
 * documents on disk and the configuration: `(request: Request) => Promise<Response>`, for
 * Node (through {@link toNodeListener}), Hono, Next.js route handlers, Bun and Deno. Usable
 * at once: the first request waits for the first scan. See the README for the rules.
 *
 * @example
 * ```ts
 * const handler = createSiteHandler({ root: 'content', config: { adminPath: 'cms/' } });
 * const response = await handler(new Request('https://example.com/sitemap.xml'));
 * await handler.close();
 * ```
 */
export function createSiteHandler(options: SiteHandlerOptions): SiteHandler {
  const timeoutMs = options.renderTimeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new WaymarkError('invalid-argument', 'renderTimeoutMs must be a positive number');
  }
  const keeper = new SiteStateKeeper(options);
  const pool = new RenderPool({ timeoutMs });
  const pages = new RenderedPages(pool);
  const names = new DocumentNames();
  const now = options.now ?? Date.now;
  // Changes between processes must not reuse ETags from an earlier run.
  const boot = Date.now().toString(36);
  const pusher = new IndexNowPusher({
    refresh: () => current(),
    ...(options.onIndexNow === undefined ? {} : { onReport: options.onIndexNow }),
  });
  /** The state as the disk is now; IndexNow sees every new one. */
  async function current(): Promise<SiteState> {
    const state = await keeper.current();
    pusher.observe(state);
    return state;
  }
  // Changes are looked for without a request while someone listens for problems, or while
  // IndexNow is on (it must see an edit to submit it).
  const poller = pollChanges(
    keeper,
    current,
    () => options.onDiagnostics !== undefined || keeper.config?.indexnow != null,
  );
  // IndexNow's baseline: what is there at start is not submitted.
  if (keeper.config?.indexnow != null) current().catch(() => {});
  const renderFailed = (path: string, message: string): void => {
    try {
      options.onRenderFailure?.({ path, message });
    } catch {
      // The operator's hook must not change the answer.
    }
  };
  const handler = async (request: Request): Promise<Response> =>
    answerResponse(await respondSafely(request));

  async function respondSafely(request: LightRequest): Promise<Answer | Response> {
    try {
      return await respond(request);
    } catch {
      return plainAnswer(500, 'Internal error\n', request.method === 'HEAD');
    }
  }

  async function respond(request: LightRequest): Promise<Answer | Response> {
    const url = URL.parse(request.url);
    const path = url?.pathname ?? '/';
    const route = routeOf(path);
    let state: SiteState | undefined;
    // Without documents, only robots.txt, the sitemaps and the IndexNow key file are served.
    if (route === null && options.serveDocuments !== true) {
      // Key files end in .txt: other paths need no state to answer 404.
      if (path.endsWith('.txt')) state = await current();
      if (path !== state?.reserved.indexNowKeyPath) {
        return plainAnswer(404, 'Not found\n', request.method === 'HEAD');
      }
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('Method not allowed\n', {
        status: 405,
        headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' },
      });
    }
    const head = request.method === 'HEAD';
    state ??= await current();
    if (state.unavailable !== null) {
      // Fail closed: to a crawler, robots.txt answering 5xx means "crawl nothing for now".
      const answer = plainAnswer(503, `Service unavailable: ${state.unavailable}\n`, head);
      answer.headers['retry-after'] = '60';
      return answer;
    }
    const keyPath = state.reserved.indexNowKeyPath;
    if (route === null && keyPath !== null && path === keyPath && state.config.indexnow !== null) {
      // IndexNow's proof of ownership: the key, as UTF-8 text.
      return body(
        state.config.indexnow.key,
        { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' },
        head,
      );
    }
    const origin = requestOrigin(request, state.config, url);
    if (!origin.ok) return plainAnswer(400, `Bad request: ${origin.message}\n`, head);
    if (route === null) {
      return documentResponse(state, pages, names, origin.origin, path, head, renderFailed);
    }
    const piece = originPiece(origin.origin);
    if (piece === null)
      return plainAnswer(400, 'Bad request: the host cannot be written in a sitemap\n', head);
    const etag = `"${boot}-${state.serial}-${fingerprint(origin.origin)}-${route.replace(/\W/g, '')}"`;
    // A date later than the server's clock is invalid (RFC 9110 13.1.3 after RFC 7232 3.3):
    // a client with a skewed clock, or a hostile one, would otherwise see no change again.
    const validates = (since: number): boolean =>
      since <= now() && state.lastModified.validates(since);
    const headers: Record<string, string> = {
      etag,
      'last-modified': new Date(state.lastModified.value(now())).toUTCString(),
      'cache-control': 'no-cache',
    };
    if (state.config.origin === null) {
      headers['vary'] = state.config.trustProxy
        ? 'Host, Forwarded, X-Forwarded-Host, X-Forwarded-Proto'
        : 'Host';
    }
    if (route === 'robots') {
      headers['content-type'] = 'text/plain; charset=utf-8';
      if (notModified(request.headers, etag, validates)) return notModifiedResponse(headers);
      const plan = sitemapPlan(state.lines, piece, state.config);
      const sitemapUrl =
        plan.urls === 0
          ? null
          : `${origin.origin}${plan.parts.length > 1 ? '/sitemap_index.xml' : '/sitemap.xml'}`;
      return body(robotsBody(state.robots, sitemapUrl, state.reserved), headers, head);
    }
    // The plan answers everything but a sitemap's body; only a body lays the entries out.
    const plan = sitemapPlan(state.lines, piece, state.config);
    const split = plan.parts.length > 1;
    headers['content-type'] = 'application/xml; charset=utf-8';
    let partNumber = 0;
    // The schema wants at least one <url>: with nothing listed there is no sitemap.
    if (route === 'sitemap' && plan.urls === 0)
      return plainAnswer(404, 'No sitemap: no document is listed\n', head);
    if (route === 'index' && !split) return plainAnswer(404, 'Not found\n', head);
    if (route.startsWith('part-')) {
      partNumber = Number(route.slice(5));
      if (!split || partNumber < 1 || partNumber > plan.parts.length)
        return plainAnswer(404, 'Not found\n', head);
    }
    if (notModified(request.headers, etag, validates)) return notModifiedResponse(headers);
    const part = plan.parts[partNumber === 0 ? 0 : partNumber - 1];
    if ((route === 'sitemap' && split) || route === 'index' || part === undefined) {
      return body(indexBody(plan, state.modifiedAt, origin.origin, piece), headers, head);
    }
    // The plan counted the bytes already: no need to measure a body of megabytes again.
    headers['content-length'] = String(part.bytes);
    if (head) return { status: 200, headers, text: null, chunks: null };
    // The layout's parts are the plan's (both made by planParts): `part` bounds the body.
    const layout = sitemapLayout(state.lines, piece, state.config);
    const chunks = new SitemapPartChunks(state.lines, layout, part, Buffer.from(piece));
    return { status: 200, headers, text: null, chunks };
  }

  // For toNodeListener: the same answers without a `Request` per request, except for
  // documents (their answers stream files and follow the request's signal).
  const respondLight: RespondLight = async (request) => {
    if (
      options.serveDocuments === true &&
      routeOf(URL.parse(request.url)?.pathname ?? '/') === null
    )
      return null;
    return respondSafely(request);
  };
  // Not part of the public type: found by toNodeListener alone.
  Object.defineProperty(handler, RESPOND_LIGHT, { value: respondLight });
  handler.close = async () => {
    await poller.stop();
    await pusher.close();
    await pool.close();
    await keeper.close();
  };
  handler.diagnostics = async () => (await current()).diagnostics;
  return handler;
}

/** robots, sitemap, index or part-<n>; null for any other path. */
function routeOf(path: string): string | null {
  if (path === '/robots.txt') return 'robots';
  if (path === '/sitemap.xml') return 'sitemap';
  if (path === '/sitemap_index.xml') return 'index';
  const digits = SITEMAP_PART.exec(path)?.[1];
  if (digits === undefined) return null;
  // One URL per part: `sitemap-00001.xml` is not another name for `sitemap-0001.xml`.
  const n = Number(digits);
  return String(n).padStart(4, '0') === digits ? `part-${n}` : null;
}

function body(text: string, headers: Record<string, string>, head: boolean): Answer {
  headers['content-length'] = String(utf8Length(text));
  return { status: 200, headers, text: head ? null : text, chunks: null };
}

function notModifiedResponse(headers: Record<string, string>): Answer {
  const { 'content-type': _type, ...rest } = headers;
  return { status: 304, headers: rest, text: null, chunks: null };
}
