import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { Readable } from 'node:stream';
import { contentTypeFor } from './content-type.ts';
import { MARKDOWN_EXTENSION } from './page-record.ts';
import { plainResponse } from './plain-response.ts';
import { renderListingPage, renderMarkdownPage } from './render-markdown.ts';
import type { SiteEntry } from './site-index.ts';
import type { SiteState } from './site-state.ts';

/** Larger Markdown files are not rendered: a page is text someone wrote. */
const MAX_MARKDOWN_BYTES = 8 * 1024 * 1024;

/**
 * `waymark serve`'s answer for a path that is not robots.txt or a sitemap: `/` is a
 * noindex list of the sitemap's pages; a document is served at its alias and at
 * `/id/<hex>` (Markdown rendered, other files as they are), restricted ones 403, denied
 * and unknown ones 404; the other trailing-slash spelling redirects to the right one.
 */
export async function documentResponse(
  state: SiteState,
  origin: string,
  path: string,
  head: boolean,
): Promise<Response> {
  if (path === '/') {
    const links = state.index.listed.map((entry) => ({
      href: entry.canonicalPath,
      text: entry.page.title ?? entry.page.path.replace(MARKDOWN_EXTENSION, ''),
    }));
    return html(renderListingPage('Pages', links), head, { 'x-robots-tag': 'noindex' });
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
  const abs = join(state.root, entry.page.path);
  const extra: Record<string, string> = entry.page.noindex ? { 'x-robots-tag': 'noindex' } : {};
  const st = await stat(abs).catch(() => null);
  if (st === null) return plainResponse(404, 'Not found\n', head);
  if (!entry.page.markdown) {
    if (!st.isFile()) return plainResponse(404, 'Not found\n', head);
    const headers = {
      'content-type': contentTypeFor(entry.page.path),
      'content-length': String(st.size),
      'last-modified': new Date(st.mtimeMs).toUTCString(),
      ...extra,
    };
    if (head) return new Response(null, { status: 200, headers });
    const body = Readable.toWeb(createReadStream(abs)) as ReadableStream<Uint8Array>;
    return new Response(body, { status: 200, headers });
  }
  if (st.size > MAX_MARKDOWN_BYTES) return plainResponse(404, 'Not found\n', head);
  const markdown = await readFile(abs, 'utf8').catch(() => null);
  if (markdown === null) return plainResponse(404, 'Not found\n', head);
  const page = renderMarkdownPage(
    markdown,
    {
      title: entry.page.title,
      canonicalUrl: origin + entry.canonicalPath,
      noindex: entry.page.noindex,
    },
    (href) => resolveLink(state, entry, href),
  );
  // The same time the sitemap gives as the page's lastmod: a crawler reading Last-Modified
  // (waymark crawl does) lists the page with the sitemap's date.
  const lastModified = new Date(entry.page.lastModified).toUTCString();
  return html(page, head, { 'last-modified': lastModified, ...extra });
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

function html(body: string, head: boolean, extra: Record<string, string>): Response {
  const bytes = new TextEncoder().encode(body);
  return new Response(head ? null : bytes, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(bytes.byteLength),
      ...extra,
    },
  });
}
