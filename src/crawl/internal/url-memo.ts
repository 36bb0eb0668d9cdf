// The crawler asks the same few questions of every link it finds (is it on the site, does it
// pass the path filters, what is its origin, what is its normal form), and the answers of the
// pages of one site repeat: the same menu links on every page, one origin for nearly all. A
// WHATWG parse per question per link was a fifth of the crawl's CPU. These memos answer
// repeats from a bounded map and leave everything else to the full function, unchanged.

import { ownCopy } from '../../shared/own-copy.ts';
import { isPlainPathAt } from './html-urls.ts';

/** Most entries a memo keeps; when full it starts again empty (cheap, and bounded). */
export const MEMO_ENTRIES = 256;

/**
 * The index of the `/` that ends the authority of `url` when it starts `http://` or
 * `https://` followed by a plain authority (lowercase ASCII letters, digits, `.`, `-`, `:`)
 * and a `/`; else -1. For such a URL, WHATWG's host, port and scheme (or its failure to
 * parse) are decided by the characters before that `/` alone: a special URL's host ends at
 * the first `/`, and nothing after it (path, query, fragment) can make a parse fail.
 */
export function plainAuthorityEnd(url: string): number {
  let start: number;
  if (url.startsWith('https://')) start = 8;
  else if (url.startsWith('http://')) start = 7;
  else return -1;
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f) return i > start ? i : -1;
    const plain = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x3a) || c === 0x2e || c === 0x2d;
    if (!plain) return -1;
  }
  return -1;
}

/**
 * `answer` for a question that depends only on a URL's scheme, host and port (origin,
 * same-site): URLs with a plain authority (see {@link plainAuthorityEnd}) share one answer
 * per authority, computed on `scheme://authority/`; any other URL is asked in full.
 */
export function memoByAuthority<T>(answer: (url: string) => T): (url: string) => T {
  const memo = new Map<string, T>();
  // The last authority asked about, and its answer: nearly every link of a site has the same
  // one. A URL that starts with it has that plain authority (its `/` is the first one after
  // the scheme), so neither the scan, nor a slice, nor a hash of one is needed.
  let lastAuthority = '';
  let lastValue: T | undefined;
  return (url) => {
    if (lastAuthority !== '' && url.startsWith(lastAuthority)) return lastValue as T;
    const end = plainAuthorityEnd(url);
    if (end < 0) return answer(url);
    // A copy: a slice would keep the whole URL (and what it was cut from) alive.
    const authority = ownCopy(url.slice(0, end + 1));
    let value = memo.get(authority);
    if (value === undefined && !memo.has(authority)) {
      value = answer(authority);
      if (memo.size >= MEMO_ENTRIES) memo.clear();
      memo.set(authority, value);
    }
    lastAuthority = authority;
    lastValue = value;
    return value as T;
  };
}

/** `answer` remembered by its whole input, for a pure function of one string. */
export function memoByString<T>(answer: (input: string) => T): (input: string) => T {
  const memo = new Map<string, T>();
  return (input) => {
    const known = memo.get(input);
    if (known !== undefined || memo.has(input)) return known as T;
    const value = answer(input);
    if (memo.size >= MEMO_ENTRIES) memo.clear();
    memo.set(input, value);
    return value;
  };
}

/**
 * `key` (the crawl state's dedupe key of a URL, a WHATWG serialisation without fragment)
 * with a URL that is already in that form given back as it is, without a parse: `http(s)://`,
 * a plain authority (see {@link plainAuthorityEnd}) that WHATWG serialises to itself (lowercase,
 * no default port, canonical IPv4: asked once per authority), then a path and query of
 * characters WHATWG keeps as written and no `.` segment (see `isPlainPathAt`). The links the
 * crawler hands over are mostly such (it normalised them already). Anything else goes to `key`.
 */
export function keepingNormalUrls(key: (url: string) => string): (url: string) => string {
  const canonical = memoByAuthority((authority) => URL.parse(authority)?.href === authority);
  return (url) => {
    if (typeof url === 'string') {
      const end = plainAuthorityEnd(url);
      if (end >= 0 && isPlainPathAt(url, end) && canonical(url)) return url;
    }
    return key(url);
  };
}
