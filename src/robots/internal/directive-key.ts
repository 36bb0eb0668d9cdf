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

/** Directives other crawlers use and Google ignores (Google's own list), but Crawl-delay. */
const UNSUPPORTED_KEYS = ['clean-param', 'host', 'noarchive', 'noindex', 'nofollow'];

/**
 * The char at `i`, ASCII upper case folded to lower case. Only ASCII is folded: no other
 * character lower-cases to one of these keys' letters, so comparing these is what
 * `toLowerCase()` then comparing says, without making the strings.
 */
function lowerAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}

/** `text[start, end)` starts with `word` (lower case ASCII), ignoring ASCII case. */
function startsWithWord(text: string, start: number, end: number, word: string): boolean {
  const length = word.length;
  if (end - start < length) return false;
  for (let i = 0; i < length; i++) {
    if (lowerAt(text, start + i) !== word.charCodeAt(i)) return false;
  }
  return true;
}

function isWord(text: string, start: number, end: number, word: string): boolean {
  return end - start === word.length && startsWithWord(text, start, end, word);
}

/**
 * Classifies the directive key `text[start, end)`, such as `User-Agent`, `disalow` or
 * `Crawl-delay`. Keys are prefixes (Google's leniency): `User-agent`, `Allow`, `Disallow`,
 * `Sitemap` and the accepted misspellings `useragent`, `user agent`, `dissallow`,
 * `dissalow`, `disalow`, `diasllow`, `disallaw`, `site-map`. Each char is read once, the
 * spellings told apart where they part.
 */
export function classifyKey(text: string, start = 0, end = text.length): ClassifiedKey {
  if (end <= start) return UNKNOWN;
  switch (text.charCodeAt(start) | 0x20) {
    case 0x75: {
      // user-agent; useragent, user agent
      if (!startsWithWord(text, start + 1, end, 'ser')) return UNKNOWN;
      const c = start + 4 < end ? lowerAt(text, start + 4) : -1;
      if (c === 0x2d) return startsWithWord(text, start + 5, end, 'agent') ? USER_AGENT : UNKNOWN;
      if (c === 0x61)
        return startsWithWord(text, start + 5, end, 'gent') ? USER_AGENT_TYPO : UNKNOWN;
      if (c === 0x20) {
        return startsWithWord(text, start + 5, end, 'agent') ? USER_AGENT_TYPO : UNKNOWN;
      }
      return UNKNOWN;
    }
    case 0x61: // a
      return startsWithWord(text, start + 1, end, 'llow') ? ALLOW : UNKNOWN;
    case 0x64:
      return disallowKey(text, start, end);
    case 0x73: {
      // sitemap; site-map
      if (!startsWithWord(text, start + 1, end, 'ite')) return UNKNOWN;
      const c = start + 4 < end ? lowerAt(text, start + 4) : -1;
      if (c === 0x6d) return startsWithWord(text, start + 5, end, 'ap') ? SITEMAP : UNKNOWN;
      if (c === 0x2d) return startsWithWord(text, start + 5, end, 'map') ? SITEMAP_TYPO : UNKNOWN;
      return UNKNOWN;
    }
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

/**
 * A key starting with `d`: `disallow`, or one of its misspellings `diasllow`, `disallaw`,
 * `disalow`, `dissallow`, `dissalow` (all at least 7 chars).
 */
function disallowKey(text: string, start: number, end: number): ClassifiedKey {
  if (end - start < 7 || lowerAt(text, start + 1) !== 0x69) return UNKNOWN;
  const c2 = lowerAt(text, start + 2);
  if (c2 === 0x61) return startsWithWord(text, start + 3, end, 'sllow') ? DISALLOW_TYPO : UNKNOWN;
  if (c2 !== 0x73) return UNKNOWN;
  const c3 = lowerAt(text, start + 3);
  if (c3 === 0x61) {
    // disallow, disallaw, disalow
    if (lowerAt(text, start + 4) !== 0x6c) return UNKNOWN;
    const c5 = lowerAt(text, start + 5);
    if (c5 === 0x6f) return lowerAt(text, start + 6) === 0x77 ? DISALLOW_TYPO : UNKNOWN;
    if (c5 !== 0x6c || end - start < 8) return UNKNOWN;
    const c6 = lowerAt(text, start + 6);
    if (lowerAt(text, start + 7) !== 0x77) return UNKNOWN;
    if (c6 === 0x6f) return DISALLOW;
    return c6 === 0x61 ? DISALLOW_TYPO : UNKNOWN;
  }
  // dissallow, dissalow
  if (c3 !== 0x73 || !startsWithWord(text, start + 4, end, 'al')) return UNKNOWN;
  if (startsWithWord(text, start + 6, end, 'low')) return DISALLOW_TYPO;
  return startsWithWord(text, start + 6, end, 'ow') ? DISALLOW_TYPO : UNKNOWN;
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
