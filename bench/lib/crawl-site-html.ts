// The crawl benchmark's site as bytes: each page's HTML (5-15 KB, a header, text with links
// in it, a related list, a footer), robots.txt and the sitemap files, written from the model
// in `crawl-site.ts`. Links are written the ways real pages write them: root-relative,
// absolute, with tracking parameters, with a fragment, raw UTF-8, relative to a `<base>`.

import { ROBOTS_RULES, random, type Site, type SiteLink, type SiteNode } from './crawl-site.ts';

const TRACKING_QUERIES = [
  'utm_source=newsletter&utm_medium=email',
  'utm_campaign=spring-sale',
  'gclid=EAIaIQobChMI',
  'fbclid=IwAR2x',
];
const OFF_SITE = [
  '<a href="https://github.com/waymark-example/shop">GitHub</a>',
  '<a href="https://twitter.com/waymark_shop" rel="me">Twitter</a>',
  '<a href="mailto:hello@shop.example">Mail us</a>',
  '<a href="tel:+15551234567">Call us</a>',
  '<a href="javascript:void(0)" class="cookie-settings">Cookie settings</a>',
  '<a href="#top">Back to top</a>',
];
const FILLER =
  'the of and to in is for on with as by at from that this be are or an it was which their will can has have more new all one about also when into other than some time these two may first only its our any them such many then most over both'.split(
    ' ',
  );
const NAV_LINKS = 8;
/** Filler sentences, made once: writing every page's words afresh costs seconds per 10,000 pages. */
const SENTENCES = ((): string[] => {
  const rand = random(7);
  return Array.from({ length: 1000 }, () => {
    const words = Array.from(
      { length: 6 + Math.floor(rand() * 20) },
      () => FILLER[Math.floor(rand() * FILLER.length)] as string,
    ).join(' ');
    return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
  });
})();
const FOOTER_LINKS = 4;

/** `Last-Modified` for a page, stable across runs. */
export function lastModified(node: SiteNode): string {
  return new Date(Date.UTC(2024, 0, 1) + (node.textSeed % 600) * 86_400_000).toUTCString();
}

function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** The href of a link from `page`, in the link's style. */
function hrefOf(link: SiteLink, page: SiteNode, origin: string, rand: () => number): string {
  const { to } = link;
  let href: string;
  switch (link.style) {
    case 'absolute':
      href = origin + to;
      break;
    case 'tracking': {
      const query = TRACKING_QUERIES[Math.floor(rand() * TRACKING_QUERIES.length)];
      href = `${to}${to.includes('?') ? '&' : '?'}${query}`;
      break;
    }
    case 'fragment':
      href = `${to}#comments`;
      break;
    case 'raw-utf8':
      href = decodeURI(to);
      break;
    case 'query':
      href = to.includes('?') ? to.slice(to.indexOf('?')) : to;
      break;
    default:
      href = to;
  }
  // Docs pages have `<base href="/docs/">` and write links within the docs relative to it.
  if (page.section === 'docs' && href.startsWith('/docs/'))
    href = href.slice('/docs/'.length) || './';
  // Most pages escape `&` in attributes; some do not, which HTML forgives.
  return rand() < 0.8 ? href.replaceAll('&', '&amp;') : href;
}

function anchor(link: SiteLink, page: SiteNode, site: Site, origin: string, rand: () => number) {
  const target = site.nodes.get(link.to);
  const rel = link.nofollow ? ' rel="nofollow"' : '';
  const text = escapeText(target?.title ?? 'More');
  return `<a href="${hrefOf(link, page, origin, rand)}"${rel}>${text}</a>`;
}

/** The page's HTML. */
export function renderPage(node: SiteNode, site: Site, origin: string): string {
  const rand = random(node.textSeed);
  const sentence = (): string => SENTENCES[Math.floor(rand() * SENTENCES.length)] as string;
  const links = node.links;
  const nav = links.slice(0, NAV_LINKS);
  const footer = links.slice(Math.max(NAV_LINKS, links.length - FOOTER_LINKS));
  const body = links.slice(NAV_LINKS, Math.max(NAV_LINKS, links.length - FOOTER_LINKS));
  const inText = body.slice(0, Math.ceil(body.length / 2));
  const related = body.slice(inText.length);
  const title = escapeText(node.title);

  const head: string[] = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${title} | Waymark Shop</title>`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="description" content="${escapeText(sentence())}">`,
  ];
  if (node.section === 'docs') head.push('<base href="/docs/">');
  if (node.canonical !== null) {
    const href = node.canonicalRelative ? node.canonical : origin + node.canonical;
    head.push(`<link rel="canonical" href="${href.replaceAll('&', '&amp;')}">`);
  }
  if (node.noindex === 'meta' || node.nofollowMeta) {
    const content = node.nofollowMeta ? 'noindex, nofollow' : 'noindex, follow';
    head.push(`<meta name="robots" content="${content}">`);
  }
  head.push(
    '<link rel="stylesheet" href="/static/site.css">',
    '<link rel="icon" href="/favicon.ico">',
    '<script src="/static/app.js" defer></script>',
    '</head>',
  );
  const out: string[] = [
    ...head,
    '<body id="top">',
    '<header class="site-header"><a class="logo" href="/">Waymark Shop</a>',
    `<nav aria-label="Main"><ul>${nav.map((l) => `<li>${anchor(l, node, site, origin, rand)}</li>`).join('')}</ul></nav>`,
    '<form action="/search" method="get"><input type="search" name="q" placeholder="Search"></form>',
    '</header>',
    '<main>',
    `<article><h1>${title}</h1>`,
    `<p class="meta">Published ${lastModified(node)} by <span class="author">Shop staff</span></p>`,
  ];
  let size = out.reduce((sum, line) => sum + line.length, 0);
  let linkIndex = 0;
  // Paragraphs until the page reaches its size, with the in-text links spread over them.
  const footerSize = 1500 + related.length * 90;
  while (size < node.bytes - footerSize || linkIndex < inText.length) {
    const parts = [sentence(), sentence()];
    const link = inText[linkIndex];
    if (link !== undefined) {
      parts.splice(1, 0, `See ${anchor(link, node, site, origin, rand)} for more.`);
      linkIndex++;
    }
    parts.push(sentence(), sentence());
    const paragraph = `<p>${parts.join(' ')}</p>`;
    out.push(paragraph);
    size += paragraph.length;
  }
  out.push('</article>');
  if (related.length > 0) {
    out.push(
      '<aside class="related"><h2>Related</h2><ul>',
      ...related.map((l) => `<li>${anchor(l, node, site, origin, rand)}</li>`),
      '</ul></aside>',
    );
  }
  out.push(
    '</main>',
    '<footer class="site-footer">',
    `<nav aria-label="Footer"><ul>${footer.map((l) => `<li>${anchor(l, node, site, origin, rand)}</li>`).join('')}</ul></nav>`,
    `<p class="social">${OFF_SITE.join(' ')}</p>`,
    '<p class="legal">&copy; 2026 Waymark Shop. All rights reserved.</p>',
    '</footer>',
    '</body>',
    '</html>',
    '',
  );
  return out.join('\n');
}

export function renderRobots(origin: string): string {
  const rules = ROBOTS_RULES.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: ${r.prefix}`);
  return [
    '# robots.txt for the Waymark Shop',
    'User-agent: *',
    ...rules,
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

/** The sitemap files by path: an index and its parts (the second gzipped by the server). */
export function sitemapFiles(site: Site, origin: string): Map<string, string> {
  const files = new Map<string, string>();
  const partPaths = site.sitemapParts.map((_, i) =>
    i === site.sitemapParts.length - 1
      ? `/sitemaps/pages-${i + 1}.xml.gz`
      : `/sitemaps/pages-${i + 1}.xml`,
  );
  files.set(
    '/sitemap.xml',
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...partPaths.map((path) => `  <sitemap><loc>${origin}${path}</loc></sitemap>`),
      '</sitemapindex>',
      '',
    ].join('\n'),
  );
  site.sitemapParts.forEach((keys, i) => {
    const urls = keys.map((key) => {
      const node = site.nodes.get(key);
      const lastmod =
        node === undefined
          ? ''
          : `<lastmod>${new Date(lastModified(node)).toISOString().slice(0, 10)}</lastmod>`;
      return `  <url><loc>${escapeText(origin + key)}</loc>${lastmod}</url>`;
    });
    files.set(
      partPaths[i] as string,
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ...urls,
        '</urlset>',
        '',
      ].join('\n'),
    );
  });
  return files;
}
