import { Marked, type Tokens } from 'marked';
import { escapeHtml } from '../../shared/html/escape-html.ts';
import { firstHeading } from './first-heading.ts';
import { splitFrontMatter } from './front-matter.ts';
import { htmlPage } from './page-shell.ts';

/** Where a link in a document goes: a new href, null to drop the link, undefined to keep it. */
export type LinkResolver = (href: string) => string | null | undefined;

export interface PageParts {
  readonly title: string | null;
  readonly canonicalUrl: string;
  readonly noindex: boolean;
}

/**
 * True for a URL that runs code when followed: `javascript:`, `vbscript:` and `data:`
 * (but `data:image/...` other than SVG, for images). Browsers ignore ASCII whitespace and
 * controls inside a scheme, so they are ignored here too.
 */
export function isScriptUrl(href: string, image = false): boolean {
  let compact = '';
  for (const char of href) if (char > ' ') compact += char;
  compact = compact.toLowerCase();
  if (compact.startsWith('javascript:') || compact.startsWith('vbscript:')) return true;
  if (!compact.startsWith('data:')) return false;
  return !(image && /^data:image\/(?!svg)/.test(compact));
}

/** A link or image of a rendered body, decided per request (see {@link RenderedBody}). */
export type RenderedLink =
  | { readonly kind: 'link'; readonly href: string; readonly title: string | null }
  | {
      readonly kind: 'image';
      readonly href: string;
      readonly title: string | null;
      readonly alt: string;
    };

/**
 * A document's Markdown as HTML, with each link and image left as a marker: where a link
 * goes depends on the other documents (their access and URLs) at the time of a request,
 * so it is decided then, while the costly part is done once per version of the file (and
 * off the main thread). Plain data: it crosses to and from a worker as it is.
 */
export interface RenderedBody {
  /**
   * The HTML, with markers `\uE000<nonce>o<n>\uE001` and `...c<n>...` around link n's
   * text, `...i<n>...` in place of image n.
   */
  readonly body: string;
  readonly links: readonly RenderedLink[];
  /** The first heading as plain text (see `firstHeading`), or null. */
  readonly heading: string | null;
  /** Random per rendering, so the document's own text cannot forge a marker. */
  readonly nonce: string;
}

/**
 * Renders Markdown to a {@link RenderedBody}; YAML front matter at the top is left out (see
 * `splitFrontMatter`). Pure, but its time is up to `marked`:
 * some inputs take time quadratic in their length, so the server runs this in a worker
 * with a time limit (see `render-pool.ts`).
 */
export function renderMarkdownBody(markdown: string): RenderedBody {
  const nonce = randomNonce();
  const links: RenderedLink[] = [];
  const marker = (sign: string, n: number): string => `\uE000${nonce}${sign}${n}\uE001`;
  const marked = new Marked({
    async: false,
    gfm: true,
    renderer: {
      link(token: Tokens.Link): string {
        const text = this.parser.parseInline(token.tokens);
        const n = links.push({ kind: 'link', href: token.href, title: token.title || null }) - 1;
        return marker('o', n) + text + marker('c', n);
      },
      image(token: Tokens.Image): string {
        const n =
          links.push({
            kind: 'image',
            href: token.href,
            title: token.title || null,
            alt: token.text,
          }) - 1;
        return marker('i', n);
      },
    },
  });
  const text = splitFrontMatter(markdown).body;
  const body = marked.parser(marked.lexer(text));
  return { body, links, heading: firstHeading(text), nonce };
}

/**
 * The page for a {@link RenderedBody}: `<title>` from the sidecar title or the first
 * heading (else `fallbackTitle`), `<link rel="canonical">`, a robots meta tag when noindex,
 * and a link back to the listing at `/`. Links and images go
 * through `resolve`, so links between documents point at their published URLs and links
 * to documents that are not public disappear (their text stays), as do links to script
 * URLs (see {@link isScriptUrl}). Linear in the body's length.
 */
export function assemblePage(
  rendered: RenderedBody,
  parts: PageParts,
  resolve: LinkResolver,
  fallbackTitle = 'Untitled',
): string {
  const markers = new RegExp(`\uE000${rendered.nonce}([oci])(\\d+)\uE001`, 'g');
  const decided = new Map<number, string | null>();
  const hrefOf = (n: number, link: RenderedLink): string | null => {
    let href = decided.get(n);
    if (href === undefined) {
      // Markdown link syntax never runs script; raw HTML in the document is the place for that.
      const script = isScriptUrl(link.href, link.kind === 'image');
      const resolved = script ? null : resolve(link.href);
      href = resolved === undefined ? link.href : resolved;
      decided.set(n, href);
    }
    return href;
  };
  const body = rendered.body.replace(markers, (_whole, sign: string, digits: string) => {
    const n = Number(digits);
    const link = rendered.links[n];
    if (link === undefined) return '';
    const href = hrefOf(n, link);
    const title = link.title === null ? '' : ` title="${escapeHtml(link.title)}"`;
    if (link.kind === 'image') {
      return href === null
        ? escapeHtml(link.alt)
        : `<img src="${escapeHtml(href)}" alt="${escapeHtml(link.alt)}"${title}>`;
    }
    if (href === null) return '';
    return sign === 'o' ? `<a href="${escapeHtml(href)}"${title}>` : '</a>';
  });
  const robots = parts.noindex ? '<meta name="robots" content="noindex">\n' : '';
  return htmlPage({
    title: parts.title ?? rendered.heading ?? fallbackTitle,
    head: `<link rel="canonical" href="${escapeHtml(parts.canonicalUrl)}">\n${robots}`,
    linkToListing: true,
    main: body,
  });
}

/** 16 hex digits from the Web Crypto API (in workers and the main thread alike). */
function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
