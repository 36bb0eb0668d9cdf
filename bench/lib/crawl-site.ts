import { seededRandom } from '../../src/test-support/seeded-random.ts';
// The crawl benchmark's site as data: every URL it answers, what each answers with, the links
// between them, the traps, and the sitemap a correct crawler must write. Generated from a
// seed, so every run (and the server and the report) sees the same site. Pure: no I/O. The
// HTML, robots.txt and sitemap files are written from this model by `crawl-site-html.ts`.

/** What a request for a URL gets. */
export type NodeKind =
  | 'page' // 200 HTML
  | 'redirect' // 301 to `location`
  | 'missing' // 404
  | 'pdf'; // 200 application/pdf

/** How one link to another URL of the site is written in the HTML. */
export type LinkStyle =
  | 'root' // /blog/x-1/
  | 'absolute' // http://127.0.0.1:port/blog/x-1/
  | 'tracking' // /blog/x-1/?utm_source=newsletter&utm_medium=email
  | 'fragment' // /blog/x-1/#comments
  | 'raw-utf8' // /blog/café-1/ (the path's non-ASCII characters unescaped)
  | 'query'; // ?page=3 (on a page of the same path)

export interface SiteLink {
  /** The target's key. */
  readonly to: string;
  readonly style: LinkStyle;
  readonly nofollow?: boolean;
}

export interface SiteNode {
  /** Path and query, normalised as a correct crawler writes it (no tracking parameters). */
  readonly key: string;
  readonly kind: NodeKind;
  /** Section, for page layout: blog, products, docs, news, private, hub, info, landing. */
  readonly section: string;
  readonly title: string;
  /** For a redirect. */
  readonly location?: string;
  /** Links on the page, in order (pages only). */
  readonly links: SiteLink[];
  /** The canonical link's target key; null when the page has none. */
  canonical: string | null;
  /** Written as a relative URL rather than absolute. */
  canonicalRelative: boolean;
  noindex: 'meta' | 'header' | null;
  /** `<meta name="robots" content="noindex, nofollow">`: links are not followed either. */
  readonly nofollowMeta: boolean;
  /** Named by the site's sitemap. */
  inSitemap: boolean;
  /** The HTML's target size in bytes (pages). */
  readonly bytes: number;
  /** Seed for the page's filler text. */
  readonly textSeed: number;
}

export interface Site {
  readonly pages: number;
  readonly nodes: ReadonlyMap<string, SiteNode>;
  /** Keys the sitemap lists, in order, split over its parts. */
  readonly sitemapParts: readonly (readonly string[])[];
  /** Counts of each trap, for the output. */
  readonly traps: Readonly<Record<string, number>>;
}

/** robots.txt groups for `*`: the longest matching rule wins, Allow on a tie. */
export const ROBOTS_RULES: readonly { allow: boolean; prefix: string }[] = [
  { allow: false, prefix: '/private/' },
  { allow: true, prefix: '/private/press/' },
  { allow: false, prefix: '/search' },
  { allow: false, prefix: '/cart' },
];

export function isDisallowed(key: string): boolean {
  let best: { allow: boolean; prefix: string } | null = null;
  for (const rule of ROBOTS_RULES) {
    if (!key.startsWith(rule.prefix)) continue;
    if (best === null || rule.prefix.length > best.prefix.length) best = rule;
  }
  return best !== null && !best.allow;
}

const WORDS =
  'alpine amber anchor arc aspen atlas beacon birch bolt breeze cedar cinder cobalt comet coral crest delta drift dune echo ember fern fjord flint forge frost garnet glade granite harbor hazel horizon indigo iris ivory jade juniper kelp lagoon lantern laurel lumen maple marble meadow mesa mist moss nova oak onyx orbit pebble pine plume prism quartz quill raven reef ridge river sage sequoia shale sierra slate sparrow spruce summit tide timber topaz tundra umber vale vapor willow zephyr'.split(
    ' ',
  );
const NON_ASCII_SLUGS = ['café-crème', 'über-straße', 'niño-año', 'smörgåsbord', 'naïve-façade'];
const DOC_TOPICS = ['guides', 'reference', 'tutorials', 'api'];
const HUB_PAGES: Readonly<Record<string, number>> = { blog: 5, products: 5, docs: 1, news: 3 };
const PER_HUB_PAGE = 30;

/** The seeded generator the site is laid out with. */
export const random = seededRandom;

/** Percent-encodes a path's non-ASCII characters as UTF-8, upper-case hex (as WHATWG URL and waymark do). */
function encodePath(path: string): string {
  return encodeURI(path);
}

/** The key of the hub page `page` (1-based) of a section. */
export function hubKey(section: string, page: number): string {
  if (page === 1) return `/${section}/`;
  return section === 'products'
    ? `/products/?page=${page}&sort=popular`
    : `/${section}/?page=${page}`;
}

/** The site of `pages` content pages (articles, products, docs...), plus hubs, traps and orphans. */
export function buildSite(pages: number, seed = 20_260_522): Site {
  const rand = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const int = (min: number, max: number): number => min + Math.floor(rand() * (max - min + 1));
  const nodes = new Map<string, SiteNode>();
  const add = (
    key: string,
    kind: NodeKind,
    section: string,
    title: string,
    extra: Partial<SiteNode> = {},
  ): SiteNode => {
    const node: SiteNode = {
      key,
      kind,
      section,
      title,
      links: [],
      canonical: kind === 'page' ? key : null,
      canonicalRelative: false,
      noindex: null,
      nofollowMeta: false,
      inSitemap: false,
      bytes: int(5_000, 15_000),
      textSeed: Math.floor(rand() * 2 ** 31),
      ...extra,
    };
    nodes.set(key, node);
    return node;
  };
  const slug = (): string => `${pick(WORDS)}-${pick(WORDS)}`;
  const titleOf = (s: string): string =>
    s
      .replace(/-\d+$/, '')
      .replaceAll('-', ' ')
      .replace(/^./, (c) => c.toUpperCase());

  // Content pages, by section.
  const sections = new Map<string, SiteNode[]>(
    ['blog', 'products', 'docs', 'news', 'private'].map((name) => [name, []]),
  );
  const sectionOf = (name: string): SiteNode[] => sections.get(name) ?? [];
  const shares: [string, number][] = [
    ['blog', 0.35],
    ['products', 0.3],
    ['docs', 0.18],
    ['news', 0.15],
    ['private', 0.02],
  ];
  for (let i = 0; i < pages; i++) {
    let roll = rand();
    let section = 'blog';
    for (const [name, share] of shares) {
      if (roll < share) {
        section = name;
        break;
      }
      roll -= share;
    }
    const words = section === 'blog' && i % 250 === 7 ? pick(NON_ASCII_SLUGS) : slug();
    let path: string;
    if (section === 'blog') path = `/blog/${words}-${i}/`;
    else if (section === 'products') path = `/products/${i}-${words}`;
    else if (section === 'docs') path = `/docs/${pick(DOC_TOPICS)}/${words}-${i}.html`;
    else if (section === 'news')
      path = `/news/20${int(18, 25)}/${String(int(1, 12)).padStart(2, '0')}/${words}-${i}`;
    else path = i % 4 === 0 ? `/private/press/${words}-${i}` : `/private/${words}-${i}`;
    sectionOf(section).push(add(encodePath(path), 'page', section, titleOf(words)));
  }
  const publicPages = ['blog', 'products', 'docs', 'news'].flatMap(sectionOf);

  // Home, hubs with pagination, and the pages every layout links to.
  const home = add('/', 'page', 'hub', 'Home');
  const hubs: SiteNode[] = [];
  for (const [section, count] of Object.entries(HUB_PAGES)) {
    for (let page = 1; page <= count; page++) {
      hubs.push(add(hubKey(section, page), 'page', 'hub', `${titleOf(section)}, page ${page}`));
    }
  }
  const info = ['about', 'contact', 'privacy', 'terms'].map((name) =>
    add(`/${name}`, 'page', 'info', titleOf(name)),
  );
  const login = add('/login', 'page', 'info', 'Sign in', {
    noindex: 'meta',
    nofollowMeta: true,
  });
  const cart = add('/cart', 'page', 'info', 'Cart');
  const search = add('/search?q=popular', 'page', 'info', 'Search');
  const nav: SiteLink[] = [
    { to: '/', style: 'root' },
    ...Object.keys(HUB_PAGES).map((s): SiteLink => ({ to: hubKey(s, 1), style: 'root' })),
    { to: search.key, style: 'root' },
    { to: cart.key, style: 'root' },
    { to: login.key, style: 'root', nofollow: true },
  ];
  const footer: SiteLink[] = info.map((n): SiteLink => ({ to: n.key, style: 'root' }));

  // Traps among the content pages.
  const traps: Record<string, number> = {};
  const count = (name: string, by = 1): void => {
    traps[name] = (traps[name] ?? 0) + by;
  };
  const ordinary = (node: SiteNode): boolean =>
    node.canonical === node.key && node.noindex === null && !node.nofollowMeta;
  for (const node of publicPages) {
    const roll = rand();
    if (roll < 0.01) {
      const target = pick(sectionOf(node.section));
      if (target !== node && ordinary(target)) {
        node.canonical = target.key;
        count('canonical to another page');
      }
    } else if (roll < 0.015) {
      node.noindex = 'meta';
      count('noindex (meta)');
    } else if (roll < 0.016) {
      node.noindex = 'header';
      count('noindex (X-Robots-Tag)');
    } else if (roll < 0.3) {
      node.canonical = null;
    } else if (roll < 0.35) {
      node.canonicalRelative = true;
    }
  }

  // Dead ends: deleted pages (404), moved pages (301), files (PDF).
  const dead = Math.max(10, Math.round(pages / 500));
  const missing = Array.from({ length: dead }, (_, k) =>
    add(`/blog/deleted-${slug()}-${k}/`, 'missing', 'blog', 'Gone'),
  );
  const moved = Array.from({ length: dead }, (_, k) => {
    const target = pick(publicPages);
    return add(`/archive/${k}-${slug()}`, 'redirect', 'blog', 'Moved', { location: target.key });
  });
  const files = Array.from({ length: dead }, (_, k) =>
    add(`/files/${slug()}-${k}.pdf`, 'pdf', 'files', 'Datasheet'),
  );
  count('links to 404 pages', missing.length);
  count('links to 301 redirects', moved.length);
  count('links to PDFs', files.length);
  /** A blog post linked without its trailing slash: the server redirects. */
  const slashless = (target: SiteNode): string => {
    const key = target.key.slice(0, -1);
    if (!nodes.has(key)) {
      add(key, 'redirect', 'blog', 'Moved', { location: target.key });
      count('blog links without the trailing slash (301)');
    }
    return key;
  };

  // Orphans: only the sitemap names them.
  const orphans = Array.from({ length: Math.max(20, Math.round(pages / 200)) }, (_, k) =>
    add(`/landing/${slug()}-${k}`, 'page', 'landing', `Campaign ${k}`),
  );
  count('orphans (only in the sitemap)', orphans.length);

  // Links. Content pages: the layout, prev/next in the section, and 10-30 related pages.
  const linkStyle = (target: SiteNode): LinkStyle => {
    const roll = rand();
    if (target.key.includes('%') && roll < 0.5) return 'raw-utf8';
    if (roll < 0.7) return 'root';
    if (roll < 0.82) return 'absolute';
    if (roll < 0.92) return 'tracking';
    return 'fragment';
  };
  const linkTo = (target: SiteNode): SiteLink => {
    if (target.section === 'blog' && target.kind === 'page' && rand() < 0.002) {
      return { to: slashless(target), style: 'root' };
    }
    const style = linkStyle(target);
    if (style === 'tracking') count('links with tracking parameters');
    return { to: target.key, style };
  };
  for (const [name, list] of sections) {
    const hub = hubKey(name === 'private' ? 'blog' : name, 1);
    list.forEach((node, index) => {
      const links = node.links;
      links.push(...nav, { to: hub, style: 'root' });
      const prev = list[index - 1];
      const next = list[index + 1];
      if (prev) links.push(linkTo(prev));
      if (next) links.push(linkTo(next));
      const related = int(10, 30);
      for (let r = 0; r < related; r++) {
        const pool = rand() < 0.7 && name !== 'private' ? list : publicPages;
        const target = rand() < 0.03 ? pick(sectionOf('private')) : pick(pool);
        if (target !== node && target !== undefined) links.push(linkTo(target));
      }
      const extra = rand();
      if (extra < 0.02) links.push({ to: pick(missing).key, style: 'root' });
      else if (extra < 0.04) links.push({ to: pick(moved).key, style: 'root' });
      else if (extra < 0.06) links.push({ to: pick(files).key, style: 'root' });
      links.push(...footer);
    });
  }
  // Hubs list their section's pages, 30 a page, and link to their neighbours.
  for (const [section, total] of Object.entries(HUB_PAGES)) {
    const list = sectionOf(section);
    for (let page = 1; page <= total; page++) {
      const hub = nodes.get(hubKey(section, page)) as SiteNode;
      hub.links.push(...nav);
      for (const item of list.slice((page - 1) * PER_HUB_PAGE, page * PER_HUB_PAGE)) {
        hub.links.push(linkTo(item));
      }
      if (page < total) hub.links.push({ to: hubKey(section, page + 1), style: 'query' });
      if (page > 1) hub.links.push({ to: hubKey(section, page - 1), style: 'query' });
      hub.links.push(...footer);
    }
  }
  home.links.push(...nav);
  for (const section of Object.keys(HUB_PAGES)) {
    for (const item of sectionOf(section).slice(0, 8)) home.links.push(linkTo(item));
  }
  home.links.push(...footer);
  for (const node of [...info, login, cart, search, ...orphans]) {
    node.links.push(...nav);
    for (let r = 0; r < 12; r++) node.links.push(linkTo(pick(publicPages)));
    node.links.push(...footer);
  }

  // The sitemap: part of the site (as sitemaps often are), the orphans, and stale entries.
  const listed: string[] = [home.key, ...hubs.map((h) => h.key)];
  for (const node of [...info, ...publicPages]) if (rand() < 0.6) listed.push(node.key);
  listed.push(...orphans.map((n) => n.key));
  const stale = [
    ...missing.slice(0, 5),
    ...moved.slice(0, 5),
    ...publicPages.filter((n) => n.noindex !== null).slice(0, 3),
    ...publicPages.filter((n) => n.canonical !== null && n.canonical !== n.key).slice(0, 3),
    ...sectionOf('private').slice(0, 4),
  ];
  const already = new Set(listed);
  for (const node of stale) if (!already.has(node.key)) listed.push(node.key);
  count('stale sitemap entries (404, 301, noindex, canonical elsewhere, disallowed)', stale.length);
  for (const key of listed) (nodes.get(key) as SiteNode).inSitemap = true;
  const half = Math.ceil(listed.length / 2);
  count(
    'disallowed pages (robots.txt)',
    [...nodes.values()].filter((n) => isDisallowed(n.key)).length,
  );
  return { pages, nodes, sitemapParts: [listed.slice(0, half), listed.slice(half)], traps };
}
