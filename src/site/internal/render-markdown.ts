import { Marked, type Tokens } from 'marked';

/** Where a link in a document goes: a new href, null to drop the link, undefined to keep it. */
export type LinkResolver = (href: string) => string | null | undefined;

export interface PageParts {
  readonly title: string | null;
  readonly canonicalUrl: string;
  readonly noindex: boolean;
}

/** `&`, `<`, `>`, `"` and `'` as entities: safe in text and in quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
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

/**
 * A Markdown document as a minimal HTML page: `<title>` from the sidecar title or the
 * first heading, `<link rel="canonical">`, a robots meta tag when noindex. Links and
 * images go through `resolve`, so links between documents point at their published URLs
 * and links to documents that are not public disappear (their text stays), as do links to
 * script URLs (see {@link isScriptUrl}).
 */
export function renderMarkdownPage(
  markdown: string,
  parts: PageParts,
  resolve: LinkResolver,
): string {
  const marked = new Marked({
    async: false,
    gfm: true,
    renderer: {
      link(token: Tokens.Link): string {
        const text = this.parser.parseInline(token.tokens);
        // Markdown link syntax never runs script; raw HTML in the document is the place for that.
        const href = isScriptUrl(token.href) ? null : resolve(token.href);
        if (href === null) return text;
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
        return `<a href="${escapeHtml(href ?? token.href)}"${title}>${text}</a>`;
      },
      image(token: Tokens.Image): string {
        const src = isScriptUrl(token.href, true) ? null : resolve(token.href);
        if (src === null) return escapeHtml(token.text);
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
        return `<img src="${escapeHtml(src ?? token.href)}" alt="${escapeHtml(token.text)}"${title}>`;
      },
    },
  });
  const tokens = marked.lexer(markdown);
  const heading = tokens.find((t): t is Tokens.Heading => t.type === 'heading');
  const title = parts.title ?? (heading === undefined ? null : plainText(heading.text));
  const body = marked.parser(tokens);
  const robots = parts.noindex ? '\n<meta name="robots" content="noindex">' : '';
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>${escapeHtml(title ?? 'Untitled')}</title>
<link rel="canonical" href="${escapeHtml(parts.canonicalUrl)}">${robots}
</head>
<body>
${body}</body>
</html>
`;
}

/** A heading's Markdown without its emphasis and link syntax, for `<title>`. */
function plainText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~]+/g, '')
    .trim();
}

/** A page of links (noindex: it is a way in, not content), for `/` of `waymark serve`. */
export function renderListingPage(
  title: string,
  links: readonly { readonly href: string; readonly text: string }[],
): string {
  const items = links
    .map((link) => `<li><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></li>`)
    .join('\n');
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<meta name="robots" content="noindex">
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<ul>
${items}
</ul>
</body>
</html>
`;
}
