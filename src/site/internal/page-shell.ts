import { escapeHtml } from '../../shared/html/escape-html.ts';

/**
 * The style of every page `waymark serve` writes: system fonts (nothing is loaded from
 * anywhere), a measure of about 70 characters, light and dark after the reader's setting,
 * and wide content (code, tables, long words, images) kept inside the width of a phone.
 */
const PAGE_STYLE = `:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#fff;--link:#0969da;--line:#d1d9e0;--code:#f6f8fa}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--link:#4493f8;--line:#3d444d;--code:#161b22}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0 auto;max-width:70ch;padding:.75rem 1.25rem 3rem;font:1.0625rem/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);overflow-wrap:break-word}
a{color:var(--link)}
body>nav{padding:.25rem 0 .5rem;margin-bottom:1rem;border-bottom:1px solid var(--line);font-size:.9375rem}
h1,h2,h3,h4,h5,h6{line-height:1.25;margin:1.5em 0 .5em}
h1{font-size:1.875rem}
h2{font-size:1.375rem}
img,video,iframe,svg{max-width:100%;height:auto}
code,kbd,pre,samp{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.875em}
code{background:var(--code);padding:.1em .3em;border-radius:4px}
pre{background:var(--code);padding:.75rem 1rem;overflow-x:auto;border-radius:6px;overflow-wrap:normal}
pre code{background:none;padding:0;font-size:inherit}
table{display:block;max-width:100%;overflow-x:auto;border-collapse:collapse}
th,td{border:1px solid var(--line);padding:.3em .6em;text-align:left;vertical-align:top}
blockquote{margin:1em 0;padding:0 1em;color:var(--muted);border-left:.25em solid var(--line)}
hr{border:0;border-top:1px solid var(--line);margin:2em 0}
.folder{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:1rem;color:var(--muted);font-weight:600}
.pages{padding-left:1.25rem}
.pages li{margin:.25em 0}`;

/** What goes into a page beside the main content. */
export interface PageShell {
  /** The `<title>`, as plain text (it is escaped here). */
  readonly title: string;
  /** Trusted `<head>` markup (canonical link, robots tag), already escaped. */
  readonly head: string;
  /** A link back to the listing at `/` above the content. */
  readonly linkToListing: boolean;
  /** The page's content as HTML. */
  readonly main: string;
}

/**
 * A whole HTML page: charset, viewport and the inline style (no external resource), the
 * optional link back to `/`, and the content in `<main>`.
 */
export function htmlPage(shell: PageShell): string {
  const nav = shell.linkToListing ? '<nav><a href="/">All pages</a></nav>\n' : '';
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(shell.title)}</title>
${shell.head}<style>
${PAGE_STYLE}
</style>
</head>
<body>
${nav}<main>
${shell.main}</main>
</body>
</html>
`;
}
