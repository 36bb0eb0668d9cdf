import {
  DEFAULT_FETCH_LIMITS,
  type FetchFunction,
  fetchWithLimits,
  openWithLimits,
} from '../http/index.ts';
import { checkTransportOptions } from '../http/internal/transport-check.ts';
import { isWaymarkError, WaymarkError } from '../shared/waymark-error.ts';
import { originOf } from '../url/index.ts';
import {
  type DiscoverNavmapOptions,
  explainNavmapDiscovery,
  type NavmapDiscovery,
} from './discover-navmap.ts';
import { assembleNavmap, type NavmapFile } from './internal/navmap-assembler.ts';
import { readNavmapDocument } from './internal/navmap-document.ts';
import { checkedMaxFiles, checkedMaxNodes, documentUrl } from './internal/navmap-options.ts';
import { mediaType } from './internal/page-headers.ts';
import { NAVMAP_ACCEPT } from './navmap-names.ts';
import type { NavmapLocation, NavmapTree } from './types.ts';

/** Options of {@link loadNavmapFile}: how files are fetched, and the caps. */
export interface LoadNavmapFileOptions {
  /** The `fetch` to use (a test double, a proxy-aware fetch). Default: the global one. */
  readonly fetch?: FetchFunction;
  /** Sent with every request, page and sitemap alike. Default `waymark`. */
  readonly userAgent?: string;
  /** `Accept-Language`, sent with every request when given. */
  readonly acceptLanguage?: string;
  /** `Accept-Encoding`, sent with every request when given (else the fetch's own default). */
  readonly acceptEncoding?: string;
  /**
   * More request headers sent with every request (a cookie, if the caller's policy sends
   * one). `Accept` here is ignored: each request sets its own. `cookie`, `authorization`
   * and `proxy-authorization` go only to the origin of the page (or of the file given).
   */
  readonly headers?: Readonly<Record<string, string>>;
  /** Time cap per file, in milliseconds. Default 15,000. */
  readonly timeoutMs?: number;
  /** Size cap per file, in bytes (after content decoding). Default 10 MiB. */
  readonly maxBytes?: number;
  /** Most sitemap files read, the root included; at most (and by default) 32. */
  readonly maxFiles?: number;
  /** Most nodes built; default 100,000. */
  readonly maxNodes?: number;
  /**
   * Connect only to public addresses, for every request (see `blockPrivateAddresses` in
   * `waymark/http`): for a service that loads pages its users name. Cannot be combined
   * with `fetch`.
   */
  readonly blockPrivateAddresses?: boolean;
  readonly signal?: AbortSignal;
}

/** Options of {@link loadNavmap}. */
export interface LoadNavmapOptions extends LoadNavmapFileOptions, DiscoverNavmapOptions {}

/** What {@link loadNavmap} found. */
export interface NavmapLoad {
  /** The page after redirects, and its status. */
  readonly page: { readonly url: string; readonly status: number };
  /** Every discovery step tried, and the location found (or null). */
  readonly discovery: NavmapDiscovery;
  readonly location: NavmapLocation | null;
  /**
   * The tree, or null when the page names no sitemap. When the sitemap itself cannot be
   * fetched or is not a navigational sitemap, the tree has no root and says why.
   */
  readonly tree: NavmapTree | null;
}

const PAGE_ACCEPT = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.8';
const XML_TYPE = /^(?:application|text)\/(?:[\w.+-]+\+)?xml$/;

/**
 * Fetches a page (its body only as far as the HTML steps need it, at most 10 MiB), discovers
 * its navigational sitemap, fetches that under the same request conditions (User-Agent, Accept-Encoding, Accept-Language and any extra headers; only
 * `Accept` changes, to `application/xml, text/xml`), follows `external` references (each
 * file once, at most 32, each under the size and time caps) and returns the tree. A failed
 * external costs only its branch, with a diagnostic. Throws a `WaymarkError` only when the
 * page itself cannot be fetched, with the fetch's code (`network`, `timeout`,
 * `redirect-limit`, `blocked-address`); any status is a page.
 *
 * @example
 * ```ts
 * const { location, tree } = await loadNavmap('https://ex.org/docs/p.html', { userAgent: 'MyBrowser/1.0' });
 * if (tree?.root) console.log(renderNavmap(tree, 'text'));
 * ```
 */
export async function loadNavmap(
  pageUrl: string,
  options: LoadNavmapOptions = {},
): Promise<NavmapLoad> {
  checkOptions(options);
  // The body is read only if the HTML steps need it, and only up to the size cap (at most
  // 10 MiB): a page too big to read whole can still name its sitemap in its headers or its
  // <head>, so the cap cuts the page short instead of failing it.
  const page = await openWithLimits(pageUrl, {
    ...limitsOf(options),
    maxBytes: Number.MAX_SAFE_INTEGER,
    headers: requestHeaders(options, PAGE_ACCEPT),
  });
  const pageBytes = options.maxBytes ?? DEFAULT_FETCH_LIMITS.maxBytes;
  let discovery: NavmapDiscovery;
  try {
    const body = firstBytes(page.body, pageBytes);
    discovery = await explainNavmapDiscovery(
      { url: page.url, status: page.status, headers: page.headers, body },
      options,
    );
  } finally {
    await page.cancel();
  }
  options.signal?.throwIfAborted();
  const location = discovery.location;
  // The caller's credentials were for the page's site: its sitemap and externals elsewhere,
  // which the page (hostile, perhaps) names, do not get them.
  const tree = location === null ? null : await loadTree(location.url, options, originOf(pageUrl));
  return { page: { url: page.url, status: page.status }, discovery, location, tree };
}

/**
 * Fetches one navigational sitemap and every file its reached `external` references need,
 * and returns the tree. With `body`, the root file is not fetched: `body` is it, read with
 * `url` as its URL (a saved file), and only its externals are fetched. Never throws for a
 * failed fetch: a root that cannot be read gives a tree with no root and an error
 * diagnostic.
 *
 * @example
 * ```ts
 * const tree = await loadNavmapFile('https://ex.org/nav/map.xml', { userAgent: 'MyBrowser/1.0' });
 * tree.files; // ['https://ex.org/nav/map.xml', 'https://ex.org/parts.xml']
 * ```
 */
export async function loadNavmapFile(
  url: string,
  options: LoadNavmapFileOptions & {
    readonly body?: Uint8Array | string;
    readonly charset?: string;
  } = {},
): Promise<NavmapTree> {
  return loadTree(url, options, originOf(url));
}

/**
 * {@link loadNavmapFile}, sending the caller's credential header fields (`authorization`,
 * `cookie`, `proxy-authorization`) only to `credentialOrigin`: an `external` reference may
 * name any host.
 */
async function loadTree(
  url: string,
  options: LoadNavmapFileOptions & {
    readonly body?: Uint8Array | string;
    readonly charset?: string;
  },
  credentialOrigin: string | null,
): Promise<NavmapTree> {
  const rootUrl = documentUrl(url);
  const { maxNodes, maxFiles } = checkOptions(options);
  const files = new Map<string, NavmapFile>();
  let fetched = 0;
  if (options.body === undefined) {
    fetched++;
    files.set(rootUrl, await fetchFile(rootUrl, options, credentialOrigin));
  } else {
    files.set(rootUrl, readNavmapDocument(options.body, rootUrl, options.charset));
  }
  const root = files.get(rootUrl) as NavmapFile;
  if ('failed' in root) return failedTree(rootUrl, root.failed);

  // Walk, fetch what the reached externals need, walk again: only reached references are
  // ever fetched, and each round fetches at least one new file or marks it failed.
  for (;;) {
    const { tree, pending } = assembleNavmap(rootUrl, files, {
      maxNodes,
      missingSeverity: 'error',
    });
    if (pending.length === 0) return tree;
    for (const next of pending) {
      if (fetched >= maxFiles) {
        files.set(next, { failed: `not fetched: the limit of ${maxFiles} files was reached` });
        continue;
      }
      fetched++;
      const file = await fetchFile(next, options, credentialOrigin);
      files.set(next, file);
      if (!('failed' in file) && file.url !== next && !files.has(file.url))
        files.set(file.url, file);
    }
  }
}

/** One sitemap file, fetched and read; a failure is a value. */
async function fetchFile(
  url: string,
  options: LoadNavmapFileOptions,
  credentialOrigin: string | null,
): Promise<NavmapFile> {
  const headers = requestHeaders(options, NAVMAP_ACCEPT);
  if (originOf(url) !== credentialOrigin) {
    for (const name of CREDENTIAL_FIELDS) headers.delete(name);
  }
  let response: Awaited<ReturnType<typeof fetchWithLimits>>;
  try {
    response = await fetchWithLimits(url, { ...limitsOf(options), headers });
  } catch (error) {
    options.signal?.throwIfAborted();
    if (isWaymarkError(error)) return { failed: error.message };
    throw error;
  }
  if (response.status !== 200) return { failed: `HTTP ${response.status}` };
  const contentType = response.headers.get('content-type') ?? undefined;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  const document = readNavmapDocument(response.body, documentUrl(response.url), charset);
  const type = mediaType(contentType);
  if (type === null || XML_TYPE.test(type)) return document;
  return {
    ...document,
    diagnostics: [
      {
        code: 'not-xml-type',
        severity: 'warning',
        message: `served as ${type}, not application/xml or text/xml; read anyway`,
        line: 1,
        column: 1,
        url: document.url,
      },
      ...document.diagnostics,
    ],
  };
}

/**
 * A bad option is the caller's mistake, said before anything is fetched (inside a fetch it
 * would look like a failed file). Returns the two caps, defaulted.
 */
function checkOptions(options: LoadNavmapFileOptions): { maxNodes: number; maxFiles: number } {
  const maxFiles = checkedMaxFiles(options.maxFiles);
  const maxNodes = checkedMaxNodes(options.maxNodes);
  requestHeaders(options, NAVMAP_ACCEPT);
  checkTransportOptions(options);
  const { timeoutMs, maxBytes } = options;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new WaymarkError('invalid-argument', `timeoutMs must be above 0, got ${timeoutMs}`);
  }
  if (maxBytes !== undefined && !(Number.isSafeInteger(maxBytes) && maxBytes >= 0)) {
    throw new WaymarkError(
      'invalid-argument',
      `maxBytes must be a whole number of bytes, got ${maxBytes}`,
    );
  }
  return { maxNodes, maxFiles };
}

/** The first `max` bytes of a body; leaving early closes the connection. */
async function* firstBytes(chunks: AsyncIterable<Uint8Array>, max: number) {
  let size = 0;
  if (max === 0) return;
  for await (const chunk of chunks) {
    yield chunk.subarray(0, max - size);
    size += chunk.byteLength;
    if (size >= max) return;
  }
}

function limitsOf(options: LoadNavmapFileOptions) {
  return {
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.blockPrivateAddresses === true ? { blockPrivateAddresses: true } : {}),
  };
}

/** The fields a redirect off the origin drops too (see `fetchWithLimits`). */
const CREDENTIAL_FIELDS = ['authorization', 'cookie', 'proxy-authorization'];

/** The same headers for every request; only `Accept` differs. */
function requestHeaders(options: LoadNavmapFileOptions, accept: string): Headers {
  let headers: Headers;
  try {
    headers = new Headers(options.headers);
  } catch (error) {
    throw new WaymarkError('invalid-argument', `invalid request headers: ${String(error)}`, {
      cause: error,
    });
  }
  headers.set('user-agent', options.userAgent ?? 'waymark');
  if (options.acceptLanguage !== undefined) headers.set('accept-language', options.acceptLanguage);
  if (options.acceptEncoding !== undefined) headers.set('accept-encoding', options.acceptEncoding);
  headers.set('accept', accept);
  return headers;
}

function failedTree(url: string, reason: string): NavmapTree {
  return {
    url,
    root: null,
    roles: {},
    classChanges: [],
    files: [],
    unresolved: [],
    diagnostics: [
      {
        code: 'fetch-failed',
        severity: 'error',
        message: `the navigational sitemap could not be fetched: ${reason}`,
        line: 1,
        column: 1,
        url,
      },
    ],
  };
}
