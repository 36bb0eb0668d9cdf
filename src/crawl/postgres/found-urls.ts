// The URLs one call adds (`add`, or what a step's results found) as the parameters of the
// statements that add them: in full (the `add` statement) for a URL this worker does not
// know the crawl holds, as counts only (`countKnown`) for one it does (see known-urls.ts).
import type { FrontierItem, FrontierKind } from '../crawl-state.ts';
import { checkItem } from '../internal/crawl-state-input.ts';
import { itemCounts } from '../internal/report-counts.ts';
import { type CountParent, KnownCounts } from './known-counts.ts';
import { IN_SITEMAP, type KnownUrls, LINKED } from './known-urls.ts';

/** URLs sent in full, as columns, in the order of the `add` statement's parameters $3..$17. */
export interface AddColumns {
  readonly key: string[];
  readonly url: (string | null)[];
  readonly origin: string[];
  readonly kind: string[];
  readonly priority: number[];
  readonly depth: number[];
  readonly via: (string | null)[];
  readonly linked: number[];
  readonly inSitemap: number[];
  /** The finished item that found it, or null (added directly). */
  readonly parent: (number | null)[];
  readonly attempt: (number | null)[];
  readonly redirects: number[];
  /** What it counts for the crawl report (see report-counts.ts). */
  readonly inlinks: number[];
  readonly sitemaps: number[];
  readonly sitemapLastmod: (string | null)[];
}

/** The URLs of one call: see the top of this file. */
export class FoundUrls {
  readonly columns: AddColumns = {
    key: [],
    url: [],
    origin: [],
    kind: [],
    priority: [],
    depth: [],
    via: [],
    linked: [],
    inSitemap: [],
    parent: [],
    attempt: [],
    redirects: [],
    inlinks: [],
    sitemaps: [],
    sitemapLastmod: [],
  };
  readonly counts = new KnownCounts();
  /** The hosts of the URLs sent or counted: the call locks them before it touches their rows. */
  readonly origins = new Set<string>();
  readonly #normalize: (url: string) => string;
  readonly #known: KnownUrls | null;

  /** `known`: URLs not to send in full again, or null to send every one. */
  constructor(normalize: (url: string) => string, known: KnownUrls | null) {
    this.#normalize = normalize;
    this.#known = known;
  }

  /** Checks `item` (throws on bad input), normalises its URL and takes it in. */
  add(item: FrontierItem, parent: CountParent | null): void {
    checkItem(item);
    const key = this.#normalize(item.url);
    const { inlinks, sitemaps, sitemapLastmod } = itemCounts(item);
    // Held with its marks: only its counts are owed, if any. A <lastmod> goes in full (rare:
    // a URL named twice by sitemaps), as only the `add` statement keeps the first one.
    if (sitemapLastmod === null && this.#known?.has(key, marksOf(item.kind))) {
      if (inlinks + sitemaps === 0) return;
      this.counts.count(key, parent, inlinks, sitemaps);
      this.origins.add(item.origin);
      return;
    }
    const c = this.columns;
    c.key.push(key);
    // Stored only when it differs from its key, which is rare.
    c.url.push(item.url === key ? null : item.url);
    c.origin.push(item.origin);
    c.kind.push(item.kind);
    c.priority.push(item.priority);
    c.depth.push(item.depth);
    c.via.push(item.via);
    // A page is reached by a link (or is the start page); a sitemap item is named by a sitemap.
    c.linked.push(item.kind === 'page' ? 1 : 0);
    c.inSitemap.push(item.kind === 'sitemap' ? 1 : 0);
    c.parent.push(parent?.id ?? null);
    c.attempt.push(parent?.attempt ?? null);
    c.redirects.push(item.redirects ?? 0);
    c.inlinks.push(inlinks);
    c.sitemaps.push(sitemaps);
    c.sitemapLastmod.push(sitemapLastmod);
    this.origins.add(item.origin);
  }

  /** Nothing to send. */
  get empty(): boolean {
    return this.columns.key.length === 0 && this.counts.size === 0;
  }

  /** The `add` statement's parameters. */
  addParameters(crawl: number, worker: number): unknown[] {
    const c = this.columns;
    return [
      crawl,
      worker,
      c.key,
      c.url,
      c.origin,
      c.kind,
      c.priority,
      c.depth,
      c.via,
      c.linked,
      c.inSitemap,
      c.parent,
      c.attempt,
      c.redirects,
      c.inlinks,
      c.sitemaps,
      c.sitemapLastmod,
    ];
  }

  /** The `countKnown` statement's parameters. */
  countParameters(crawl: number, worker: number): unknown[] {
    return [crawl, worker, ...this.counts.parameters()];
  }

  /** Remembers the URLs sent in full as held by the crawl, with their marks: they were added. */
  rememberAdded(known: KnownUrls): void {
    const c = this.columns;
    for (let i = 0; i < c.key.length; i++) {
      known.remember(
        c.key[i] as string,
        (c.linked[i] ? LINKED : 0) | (c.inSitemap[i] ? IN_SITEMAP : 0),
      );
    }
  }
}

function marksOf(kind: FrontierKind): number {
  return kind === 'page' ? LINKED : kind === 'sitemap' ? IN_SITEMAP : 0;
}
