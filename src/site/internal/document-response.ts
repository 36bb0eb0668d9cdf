import { dirname, posix } from 'node:path';
import { Readable } from 'node:stream';
import { contentTypeFor } from './content-type.ts';
import { documentContentUsage } from './content-usage-value.ts';
import { type DocumentNames, fileName } from './document-names.ts';
import { MAX_MARKDOWN_BYTES, readText } from './document-text.ts';
import { displayText } from './first-heading.ts';
import { type OpenedDocument, openDocument } from './open-document.ts';
import { plainResponse } from './plain-response.ts';
import { assemblePage } from './render-markdown.ts';
import type { RenderedPages } from './rendered-pages.ts';
import type { SiteEntry } from './site-index.ts';
import type { SiteState } from './site-state.ts';

/**
 * `waymark serve`'s answer for a path that is not robots.txt or a sitemap: `/` is a
 * noindex list of the sitemap's pages, by name and folder (see `DocumentNames`); a document is served at its alias and at
 * `/id/<hex>` (Markdown rendered, other files as they are), restricted ones 403, denied
 * and unknown ones 404; the other trailing-slash spelling redirects to the right one.
 * Only the file the index describes is served (see `openDocument`); Markdown is rendered
 * off the main thread, once per version of the file (see `RenderedPages`).
 */
export async function documentResponse(
  state: SiteState,
  pages: RenderedPages,
  names: DocumentNames,
  origin: string,
  path: string,
  head: boolean,
  /** Told of a rendering that failed (the operator's to read; the client gets no cause). */
  renderFailed: (path: string, message: string) => void = () => {},
): Promise<Response> {
  if (path === '/') {
    const page = await names.listingPage(state.root, state.index.listed, state.serial);
    return html(page, head, { 'x-robots-tag': 'noindex' });
  }
  const entry = state.index.byUrlPath.get(path);
  if (entry === undefined) {
    const other = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
    if (state.index.byUrlPath.has(other)) {
      return new Response(null, { status: 301, headers: { location: other } });
    }
    return plainResponse(404, 'Not found\n', head);
  }
  if (entry.page.access !== 'public') return plainResponse(403, 'Forbidden\n', head);
  const opened = await openDocument(state.root, entry.page);
  if (opened === null) return plainResponse(404, 'Not found\n', head);
  const extra: Record<string, string> = entry.page.noindex ? { 'x-robots-tag': 'noindex' } : {};
  const usage = documentContentUsage(
    entry.page.contentUsage,
    entry.canonicalPath,
    state.config.contentUsage,
  );
  // The AIPREF preference for this document (draft-ietf-aipref-attach), on documents only.
  if (usage !== null) extra['content-usage'] = usage;
  if (!entry.page.markdown) return fileResponse(opened, entry, head, extra);
  let rendering: ReturnType<RenderedPages['get']>;
  try {
    if (opened.stat.size > MAX_MARKDOWN_BYTES) return plainResponse(404, 'Not found\n', head);
    const { dev, ino, size, mtimeMs, ctimeMs } = opened.stat;
    const key = `${entry.page.path}\0${dev}:${ino}:${size}:${mtimeMs}:${ctimeMs}`;
    // The file is closed once its text is read (or found not needed: cached, or already
    // being rendered), not held for the render: requests waiting on a slow page must not
    // hold a descriptor each.
    let reading: Promise<unknown> = Promise.resolve();
    rendering = pages.get(key, () => {
      const text = readText(opened, MAX_MARKDOWN_BYTES).catch(() => null);
      reading = text;
      return text;
    });
    await reading;
  } finally {
    await opened.handle.close().catch(() => {});
  }
  const outcome = await rendering;
  if (outcome === null) return plainResponse(404, 'Not found\n', head);
  if (!outcome.ok) {
    // A failure's own message (the worker's, Node's: "Worker initialization failure: EMFILE")
    // is the operator's to read, not the client's: it is told as what it means to the reader.
    if (outcome.reason === 'failed') renderFailed(entry.page.path, outcome.message);
    const status = outcome.reason === 'failed' ? 500 : 503;
    const message =
      outcome.reason === 'failed' ? 'the page could not be rendered' : outcome.message;
    const response = plainResponse(status, `The page cannot be shown: ${message}\n`, head);
    if (outcome.reason === 'busy') response.headers.set('retry-after', '1');
    return response;
  }
  const page = assemblePage(
    outcome.rendered,
    {
      // As the listing names it (see DocumentNames).
      title: entry.page.title === null ? null : displayText(entry.page.title) || null,
      canonicalUrl: origin + entry.canonicalPath,
      noindex: entry.page.noindex,
    },
    (href) => resolveLink(state, entry, href),
    fileName(entry.page.path),
  );
  // The same time the sitemap gives as the page's lastmod: a crawler reading Last-Modified
  // (waymark crawl does) lists the page with the sitemap's date.
  const lastModified = new Date(entry.page.lastModified).toUTCString();
  return html(page, head, { 'last-modified': lastModified, ...extra });
}

/** A file that is not Markdown, as it is: streamed from the handle that was checked. */
function fileResponse(
  opened: OpenedDocument,
  entry: SiteEntry,
  head: boolean,
  extra: Record<string, string>,
): Response {
  const { handle, stat } = opened;
  const headers = {
    'content-type': contentTypeFor(entry.page.path),
    'content-length': String(stat.size),
    'last-modified': new Date(stat.mtimeMs).toUTCString(),
    ...DOCUMENT_CACHING,
    'x-content-type-options': 'nosniff',
    ...extra,
  };
  if (head || stat.size === 0) {
    void handle.close().catch(() => {});
    return new Response(head ? null : new Uint8Array(0), { status: 200, headers });
  }
  // Exactly the bytes Content-Length announced; the stream closes the handle when done.
  const stream = handle.createReadStream({ start: 0, end: stat.size - 1 });
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
    status: 200,
    headers,
  });
}

/**
 * A relative link between documents becomes the target's published URL; one that points
 * into the root at anything that is not a public document is dropped, so no response
 * names a restricted, denied or missing document. Absolute links stay as written.
 */
function resolveLink(state: SiteState, from: SiteEntry, href: string): string | null | undefined {
  if (
    href === '' ||
    href.startsWith('#') ||
    href.startsWith('/') ||
    /^[A-Za-z][A-Za-z0-9+.-]*:/.test(href)
  ) {
    return undefined;
  }
  const cut = href.search(/[?#]/);
  const pathPart = cut < 0 ? href : href.slice(0, cut);
  const fragment = cut < 0 ? '' : href.slice(cut).replace(/^\?[^#]*/, '');
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathPart);
  } catch {
    return null;
  }
  const target = posix.normalize(
    posix.join(dirname(from.page.path).replaceAll('\\', '/'), decoded),
  );
  if (target.startsWith('../') || target === '..') return undefined;
  const entry = state.index.byFilePath.get(target);
  if (entry === undefined || entry.page.access !== 'public') return null;
  return entry.canonicalPath + fragment;
}

/**
 * Every document answer is revalidated before reuse: without it, `Last-Modified` lets a
 * shared cache keep a page by heuristic (RFC 9111 4.2.2) after it was made `deny`.
 */
const DOCUMENT_CACHING = { 'cache-control': 'no-cache' } as const;

function html(body: string, head: boolean, extra: Record<string, string>): Response {
  const bytes = new TextEncoder().encode(body);
  return new Response(head ? null : bytes, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(bytes.byteLength),
      ...DOCUMENT_CACHING,
      ...extra,
    },
  });
}
