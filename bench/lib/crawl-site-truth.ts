// What the crawl benchmark's site should be crawled into, from its model: the true sitemap
// (a correct crawl of the model), and why a URL a crawler listed or missed is an error.

import { isDisallowed, type Site, type SiteNode } from './crawl-site.ts';

/** What a correct crawler does with a fetched URL. */
function listable(node: SiteNode): boolean {
  return (
    node.kind === 'page' &&
    !isDisallowed(node.key) &&
    node.noindex === null &&
    (node.canonical === null || node.canonical === node.key)
  );
}

/**
 * The sitemap the site should have: a breadth-first crawl of the model from `/` and every
 * sitemap entry, as a correct crawler makes it (robots.txt obeyed, redirects followed,
 * canonical targets queued, links of noindex pages followed, of nofollow pages not), keeping
 * the 200 HTML pages that are not noindex, not canonicalised elsewhere and not disallowed.
 */
export function trueSitemap(site: Site): string[] {
  const seen = new Set<string>(['/', ...site.sitemapParts.flat()]);
  const queue = [...seen];
  const listed: string[] = [];
  for (let i = 0; i < queue.length; i++) {
    const node = site.nodes.get(queue[i] as string);
    if (node === undefined || isDisallowed(node.key)) continue;
    const next: string[] = [];
    if (node.kind === 'redirect' && node.location !== undefined) next.push(node.location);
    if (node.kind === 'page') {
      if (listable(node)) listed.push(node.key);
      if (!node.nofollowMeta) next.push(...node.links.map((l) => l.to));
      if (node.canonical !== null) next.push(node.canonical);
    }
    for (const key of next) {
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push(key);
    }
  }
  return listed.sort();
}

const TRACKING = /^(utm_[^=]*|gclid|fbclid|msclkid)$/i;

/**
 * For each URL, why it is not in the true sitemap (`missed` false: a crawler listed it) or
 * what kind of page it is (`missed` true: a crawler left out a true URL).
 */
export function explainUrls(
  site: Site,
  origin: string,
  urls: readonly string[],
  missed: boolean,
): string[] {
  const inbound = new Map<string, number>();
  const byDecoded = new Map<string, string>();
  for (const node of site.nodes.values()) {
    for (const link of node.links) inbound.set(link.to, (inbound.get(link.to) ?? 0) + 1);
    byDecoded.set(safeDecode(node.key), node.key);
  }
  return urls.map((url) => {
    if (!url.startsWith(`${origin}/`)) return 'not on the site';
    const key = url.slice(origin.length);
    const node = site.nodes.get(key);
    if (node === undefined) {
      const parsed = URL.parse(url);
      if (parsed === null) return 'not a URL';
      const kept = [...parsed.searchParams.keys()].filter((name) => TRACKING.test(name));
      if (kept.length > 0) return `tracking parameter kept (${kept.join(', ')})`;
      if (/^\/(sitemap|sitemaps\/)/.test(key)) return 'a sitemap file, not a page';
      const same = byDecoded.get(safeDecode(parsed.pathname + parsed.search));
      if (same !== undefined) return `same page as ${origin}${same}, written differently`;
      return 'no such page on the site';
    }
    if (missed) {
      const links = inbound.get(key) ?? 0;
      const why = [
        links === 0 ? 'orphan: only the sitemap names it' : `linked from ${links} pages`,
      ];
      if (key.includes('?')) why.push('query string');
      if (key.includes('%')) why.push('non-ASCII path');
      why.push(node.inSitemap ? 'in the sitemap' : 'not in the sitemap');
      return why.join('; ');
    }
    if (isDisallowed(key)) return 'disallowed by robots.txt';
    if (node.kind === 'missing') return 'HTTP 404';
    if (node.kind === 'redirect') return `HTTP 301 to ${origin}${node.location}`;
    if (node.kind === 'pdf') return 'not HTML (application/pdf)';
    if (node.noindex === 'meta') return 'noindex (<meta name="robots">)';
    if (node.noindex === 'header') return 'noindex (X-Robots-Tag header)';
    if (node.canonical !== null && node.canonical !== key)
      return `canonical is ${origin}${node.canonical}`;
    return 'a listable page the true crawl does not reach';
  });
}

function safeDecode(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}
