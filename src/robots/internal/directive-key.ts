// Directive names are matched as Google matches them: case-insensitive prefixes, with the
// misspellings Googlebot has accepted for years (RFC 9309 allows crawlers to be lenient).

export type DirectiveKind =
  | 'user-agent'
  | 'allow'
  | 'disallow'
  | 'sitemap'
  | 'content-usage'
  | 'content-signal'
  | 'unsupported'
  | 'unknown';

export interface ClassifiedKey {
  readonly kind: DirectiveKind;
  /** The key was accepted only as a known misspelling. */
  readonly typo: boolean;
}

const USER_AGENT = ['user-agent'];
const USER_AGENT_TYPOS = ['useragent', 'user agent'];
const DISALLOW_TYPOS = ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'];
const SITEMAP_TYPOS = ['site-map'];

/** Directives other crawlers use and Google ignores (Google's own list). */
const UNSUPPORTED = new Set([
  'clean-param',
  'crawl-delay',
  'host',
  'noarchive',
  'noindex',
  'nofollow',
]);

function startsWithAny(key: string, prefixes: readonly string[]): boolean {
  for (const prefix of prefixes) if (key.startsWith(prefix)) return true;
  return false;
}

/** Classifies a directive key such as `User-Agent`, `disalow` or `Crawl-delay`. */
export function classifyKey(key: string): ClassifiedKey {
  const lower = key.toLowerCase();
  if (startsWithAny(lower, USER_AGENT)) return { kind: 'user-agent', typo: false };
  if (startsWithAny(lower, USER_AGENT_TYPOS)) return { kind: 'user-agent', typo: true };
  if (lower.startsWith('allow')) return { kind: 'allow', typo: false };
  if (lower.startsWith('disallow')) return { kind: 'disallow', typo: false };
  if (startsWithAny(lower, DISALLOW_TYPOS)) return { kind: 'disallow', typo: true };
  if (lower.startsWith('sitemap')) return { kind: 'sitemap', typo: false };
  if (startsWithAny(lower, SITEMAP_TYPOS)) return { kind: 'sitemap', typo: true };
  // Matched whole, not as prefixes: these are not Google's keys, so Google's leniency does
  // not apply, and `Content-Usages` is no more a usage line than `Unicorns`.
  if (lower === 'content-usage') return { kind: 'content-usage', typo: false };
  if (lower === 'content-signal') return { kind: 'content-signal', typo: false };
  if (UNSUPPORTED.has(lower)) return { kind: 'unsupported', typo: false };
  return { kind: 'unknown', typo: false };
}

/** The spelling a directive kind is written with. */
export const CANONICAL_KEY: Readonly<
  Record<
    'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'content-usage' | 'content-signal',
    string
  >
> = {
  'user-agent': 'User-agent',
  allow: 'Allow',
  disallow: 'Disallow',
  sitemap: 'Sitemap',
  'content-usage': 'Content-Usage',
  'content-signal': 'Content-Signal',
};
