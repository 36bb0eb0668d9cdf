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
  /** The key is `Crawl-delay` (an unsupported directive waymark still reads). */
  readonly crawlDelay: boolean;
}

function classified(kind: DirectiveKind, typo = false, crawlDelay = false): ClassifiedKey {
  return { kind, typo, crawlDelay };
}

// One frozen answer per outcome: classifying a line allocates nothing.
const USER_AGENT = classified('user-agent');
const USER_AGENT_TYPO = classified('user-agent', true);
const ALLOW = classified('allow');
const DISALLOW = classified('disallow');
const DISALLOW_TYPO = classified('disallow', true);
const SITEMAP = classified('sitemap');
const SITEMAP_TYPO = classified('sitemap', true);
const CONTENT_USAGE = classified('content-usage');
const CONTENT_SIGNAL = classified('content-signal');
const UNSUPPORTED = classified('unsupported');
const CRAWL_DELAY = classified('unsupported', false, true);
const UNKNOWN = classified('unknown');

const USER_AGENT_TYPOS = ['useragent', 'user agent'];
const DISALLOW_TYPOS = ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'];
/** Directives other crawlers use and Google ignores (Google's own list), but Crawl-delay. */
const UNSUPPORTED_KEYS = ['clean-param', 'host', 'noarchive', 'noindex', 'nofollow'];

/**
 * `text[start, end)` starts with `word` (lower case ASCII), ignoring ASCII case. Only ASCII
 * is folded: no other character lower-cases to one of these keys' letters, so this is what
 * `toLowerCase().startsWith(word)` says, without making the strings.
 */
function startsWithWord(text: string, start: number, end: number, word: string): boolean {
  const length = word.length;
  if (end - start < length) return false;

  for (let i = 0; i < length; i++) {
    let c = text.charCodeAt(start + i);
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    if (c !== word.charCodeAt(i)) return false;
  }
  return true;
}

function isWord(text: string, start: number, end: number, word: string): boolean {
  return end - start === word.length && startsWithWord(text, start, end, word);
}

function startsWithAny(text: string, start: number, end: number, words: readonly string[]) {
  for (const word of words) if (startsWithWord(text, start, end, word)) return true;
  return false;
}

/** Classifies the directive key `text[start, end)`, such as `User-Agent`, `disalow` or `Crawl-delay`. */
export function classifyKey(text: string, start = 0, end = text.length): ClassifiedKey {
  if (end <= start) return UNKNOWN;
  switch (text.charCodeAt(start) | 0x20) {
    case 0x75: // u
      if (startsWithWord(text, start, end, 'user-agent')) return USER_AGENT;
      if (startsWithAny(text, start, end, USER_AGENT_TYPOS)) return USER_AGENT_TYPO;
      return UNKNOWN;
    case 0x61: // a
      return startsWithWord(text, start, end, 'allow') ? ALLOW : UNKNOWN;
    case 0x64: // d
      if (startsWithWord(text, start, end, 'disallow')) return DISALLOW;
      return startsWithAny(text, start, end, DISALLOW_TYPOS) ? DISALLOW_TYPO : UNKNOWN;
    case 0x73: // s
      if (startsWithWord(text, start, end, 'sitemap')) return SITEMAP;
      return startsWithWord(text, start, end, 'site-map') ? SITEMAP_TYPO : UNKNOWN;
    case 0x63: // c
      // Matched whole, not as prefixes: these are not Google's keys, so Google's leniency
      // does not apply, and `Content-Usages` is no more a usage line than `Unicorns`.
      if (isWord(text, start, end, 'content-usage')) return CONTENT_USAGE;
      if (isWord(text, start, end, 'content-signal')) return CONTENT_SIGNAL;
      if (isWord(text, start, end, 'crawl-delay')) return CRAWL_DELAY;
      return isWord(text, start, end, 'clean-param') ? UNSUPPORTED : UNKNOWN;
    case 0x68: // h
    case 0x6e: // n
      for (const word of UNSUPPORTED_KEYS) if (isWord(text, start, end, word)) return UNSUPPORTED;
      return UNKNOWN;
    default:
      return UNKNOWN;
  }
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
