import { trimAscii } from '../shared/html/html-values.ts';
import { WaymarkError } from '../shared/waymark-error.ts';
import { type HtmlLinkScan, MAX_HTML_ELEMENTS, scanHtmlLinks } from './internal/html-link-scan.ts';
import { parseOptHeader } from './internal/opt-header.ts';
import { bodyOf } from './internal/page-body.ts';
import { headerValues, mediaType, type PageHeaders } from './internal/page-headers.ts';
import { NAVMAP_NS } from './navmap-names.ts';
import type { NavmapLocation, NavmapVia } from './types.ts';

export type { PageHeaders } from './internal/page-headers.ts';

/** A fetched page as discovery needs it; a fetch `Response` works as well. */
export interface NavmapPage {
  /** The page's URL after redirects: the base for relative values. */
  readonly url: string;
  /** Not consulted: any response may name a sitemap. */
  readonly status?: number;
  readonly headers: PageHeaders;
  /**
   * The body; only the HTML steps read it. A stream (a `Response`'s body, a Node stream) is
   * read up to its first 10 MiB and then cancelled; a stream already read or locked counts
   * as no body.
   */
  readonly body?:
    | Uint8Array
    | string
    | ReadableStream<Uint8Array>
    | AsyncIterable<Uint8Array>
    | null;
}

/** Options of {@link discoverNavmap}. */
export interface DiscoverNavmapOptions {
  /**
   * Step 5: the user's site-specific preference, asked only when the page names nothing.
   * Returns a URL (relative to the page) or nothing.
   */
  readonly preference?: (
    pageUrl: string,
  ) => string | null | undefined | Promise<string | null | undefined>;
}

/** What one discovery step found. */
export interface NavmapDiscoveryStep {
  /** 1 to 5, in the order tried. */
  readonly step: number;
  readonly via: NavmapVia;
  /**
   * `found`; `absent` (nothing there); `empty` or `invalid` (a value that falls through);
   * `skipped` (not applicable: no HTML, no preference function).
   */
  readonly outcome: 'found' | 'absent' | 'empty' | 'invalid' | 'skipped';
  /** One sentence for people. */
  readonly detail: string;
  /** The sitemap's URL, when `found`. */
  readonly url?: string;
}

/** Discovery with its reasons: the location (or null) and every step tried, in order. */
export interface NavmapDiscovery {
  readonly location: NavmapLocation | null;
  readonly steps: readonly NavmapDiscoveryStep[];
}

const HTML_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);

/**
 * Finds the root navigational sitemap a page names, by the five steps in order: the RFC 2774
 * `Opt` header, `X-Standard-Sitemap-Location`, `<link rel="schema.p">` with
 * `<link rel="p.location">`, `<link rel="standard-sitemap">`, and the caller's preference.
 * The first step that yields a URL wins; an empty or unparsable value falls through. It
 * never guesses a location and never fetches anything.
 *
 * @example
 * ```ts
 * const location = await discoverNavmap({
 *   url: 'https://ex.org/docs/p.html',
 *   headers: { opt: '"http://standard-sitemap.org/2007/ns"; ns=42', '42-location': '/nav/map.xml' },
 * });
 * // { url: 'https://ex.org/nav/map.xml', via: 'opt-header' }
 * ```
 */
export async function discoverNavmap(
  page: NavmapPage | Response,
  options: DiscoverNavmapOptions = {},
): Promise<NavmapLocation | null> {
  return (await explainNavmapDiscovery(page, options)).location;
}

/**
 * {@link discoverNavmap} with its reasons: which steps were tried and what each found, for
 * telling a user why a page names no sitemap.
 *
 * @example
 * ```ts
 * const { location, steps } = await explainNavmapDiscovery(page);
 * if (location === null) for (const s of steps) console.log(`${s.step}. ${s.via}: ${s.detail}`);
 * ```
 */
export async function explainNavmapDiscovery(
  page: NavmapPage | Response,
  options: DiscoverNavmapOptions = {},
): Promise<NavmapDiscovery> {
  const pageUrl = URL.parse(page.url);
  if (pageUrl === null) {
    throw new WaymarkError('invalid-argument', `the page URL is not an absolute URL: ${page.url}`);
  }
  const steps: NavmapDiscoveryStep[] = [];
  const done = (step: NavmapDiscoveryStep): NavmapDiscovery | null => {
    steps.push(step);
    if (step.url === undefined) return null;
    return { location: { url: step.url, via: step.via }, steps };
  };
  const headers = page.headers;

  const fromHeaders =
    done(optHeaderStep(headers, pageUrl)) ?? done(legacyHeaderStep(headers, pageUrl));
  if (fromHeaders !== null) return fromHeaders;

  const contentType = headerValues(headers, 'content-type')[0];
  const type = mediaType(contentType);
  const isHtml = type !== null && HTML_TYPES.has(type);
  const html = isHtml ? await htmlOf(page, contentType) : null;
  if (html === null) {
    const why = isHtml
      ? 'the page has no body'
      : `the page is not HTML (Content-Type ${type ?? 'missing'})`;
    steps.push({ step: 3, via: 'link', outcome: 'skipped', detail: why });
    steps.push({ step: 4, via: 'legacy-link', outcome: 'skipped', detail: why });
  } else {
    const base = URL.parse(trimAscii(html.baseHref ?? ''), pageUrl) ?? pageUrl;
    // Said where it may matter: a link past the cap is not silently missed.
    const cut = html.truncated
      ? ` (only the first ${MAX_HTML_ELEMENTS} <link> and <meta> elements are read)`
      : '';
    const withCut = (step: NavmapDiscoveryStep) =>
      step.outcome === 'absent' ? { ...step, detail: step.detail + cut } : step;
    const fromHtml =
      done(withCut(linkStep(html, base))) ?? done(withCut(legacyLinkStep(html, base)));
    if (fromHtml !== null) return fromHtml;
  }

  const preferred = await preferenceStep(options, pageUrl);
  return done(preferred) ?? { location: null, steps };
}

/** Step 1: `Opt: "<namespace>"; ns=NN` and the `NN-Location` header. */
function optHeaderStep(headers: PageHeaders, pageUrl: URL): NavmapDiscoveryStep {
  const step = 1;
  const via = 'opt-header';
  const opt = headerValues(headers, 'opt');
  if (opt.length === 0) return { step, via, outcome: 'absent', detail: 'no Opt header' };
  const declarations = parseOptHeader(opt.join(', ')).filter((d) => d.uri === NAVMAP_NS);
  // A declaration without a usable prefix does not hide a later one that has one.
  const declaration = declarations.find((d) => d.ns !== null) ?? declarations[0];
  if (declaration === undefined) {
    return { step, via, outcome: 'absent', detail: 'Opt declares no extension for the namespace' };
  }
  if (declaration.ns === null) {
    return {
      step,
      via,
      outcome: 'invalid',
      detail: 'Opt declares the namespace without ns=NN (two or more digits)',
    };
  }
  const name = `${declaration.ns}-Location`;
  const value = headerValues(headers, name)[0];
  if (value === undefined) return { step, via, outcome: 'absent', detail: `no ${name} header` };
  return resolved(step, via, value.trim(), pageUrl, `the ${name} header`);
}

/** Step 2: `X-Standard-Sitemap-Location`. */
function legacyHeaderStep(headers: PageHeaders, pageUrl: URL): NavmapDiscoveryStep {
  const name = 'X-Standard-Sitemap-Location';
  const value = headerValues(headers, name)[0];
  if (value === undefined) {
    return { step: 2, via: 'legacy-header', outcome: 'absent', detail: `no ${name} header` };
  }
  return resolved(2, 'legacy-header', value.trim(), pageUrl, `the ${name} header`);
}

/** Step 3: the first `p.location` link for a prefix `p` declared with `schema.p`. */
function linkStep(html: HtmlLinkScan, base: URL): NavmapDiscoveryStep {
  const prefixes = new Set<string>();
  for (const link of html.links) {
    if (link.href === null || trimAscii(link.href) !== NAVMAP_NS) continue;
    for (const token of link.rel) if (isSchemaToken(token)) prefixes.add(token.slice(7));
  }
  for (const meta of html.metas) {
    if (isSchemaToken(meta.name) && trimAscii(meta.content ?? '') === NAVMAP_NS) {
      prefixes.add(meta.name.slice(7));
    }
  }
  if (prefixes.size === 0) {
    return {
      step: 3,
      via: 'link',
      outcome: 'absent',
      detail: 'no <link rel="schema.p"> (or <meta name="schema.p">) declares the namespace',
    };
  }
  const link = html.links.find((l) => l.rel.some((token) => isLocationToken(token, prefixes)));
  if (link === undefined) {
    const names = [...prefixes].map((p) => `${p}.location`).join(', ');
    return { step: 3, via: 'link', outcome: 'absent', detail: `no <link rel="${names}">` };
  }
  return resolved(3, 'link', trimAscii(link.href ?? ''), base, 'the location <link> href');
}

/** Step 4: `<link rel="standard-sitemap">`. */
function legacyLinkStep(html: HtmlLinkScan, base: URL): NavmapDiscoveryStep {
  const link = html.links.find((l) => l.rel.includes('standard-sitemap'));
  if (link === undefined) {
    return {
      step: 4,
      via: 'legacy-link',
      outcome: 'absent',
      detail: 'no <link rel="standard-sitemap">',
    };
  }
  const href = trimAscii(link.href ?? '');
  return resolved(4, 'legacy-link', href, base, 'the standard-sitemap <link> href');
}

/** Step 5: the caller's preference. */
async function preferenceStep(
  options: DiscoverNavmapOptions,
  pageUrl: URL,
): Promise<NavmapDiscoveryStep> {
  if (options.preference === undefined) {
    return { step: 5, via: 'preference', outcome: 'skipped', detail: 'no user preference given' };
  }
  const value = await options.preference(pageUrl.href);
  if (value === null || value === undefined) {
    return { step: 5, via: 'preference', outcome: 'absent', detail: 'no preference for this site' };
  }
  return resolved(5, 'preference', value.trim(), pageUrl, 'the preference');
}

function resolved(
  step: number,
  via: NavmapVia,
  value: string,
  base: URL,
  what: string,
): NavmapDiscoveryStep {
  if (value === '') return { step, via, outcome: 'empty', detail: `${what} is empty` };
  const url = URL.parse(value, base);
  if (url === null) {
    return { step, via, outcome: 'invalid', detail: `${what} is not a URL: ${value}` };
  }
  return { step, via, outcome: 'found', detail: `${what} names ${url.href}`, url: url.href };
}

function isSchemaToken(token: string): boolean {
  return token.startsWith('schema.') && token.length > 7;
}

function isLocationToken(token: string, prefixes: ReadonlySet<string>): boolean {
  return token.endsWith('.location') && prefixes.has(token.slice(0, -9));
}

/** The page's HTML, read from a page object or a Response; null without a body. */
async function htmlOf(
  page: NavmapPage | Response,
  contentType: string | undefined,
): Promise<HtmlLinkScan | null> {
  const body = await bodyOf(page.body);
  return body === null ? null : scanHtmlLinks(body, contentType);
}
