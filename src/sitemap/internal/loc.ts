import { ownCopy } from '../../shared/own-copy.ts';
import { lastPlainHost, plainHrefOnly } from '../../url/internal/plain-http-url.ts';

/** XML whitespace, the only whitespace a `<loc>` may be padded with. */
export function trimXml(text: string): string {
  let s = 0;
  let e = text.length;
  while (s < e && isXmlSpace(text.charCodeAt(s))) s++;
  while (e > s && isXmlSpace(text.charCodeAt(e - 1))) e--;
  return s === 0 && e === text.length ? text : text.slice(s, e);
}

function isXmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

export type LocReading =
  | { readonly ok: true; readonly href: string; readonly host: string }
  | {
      readonly ok: false;
      readonly code: 'empty-loc' | 'relative-loc' | 'invalid-loc' | 'unsupported-loc';
      readonly message: string;
    };

/**
 * A `<loc>` as a crawler can use it: trimmed, absolute http(s), spelled as `new URL(x).href`
 * (scheme and host lower-cased, IDN hosts in punycode, spaces and non-ASCII percent-encoded).
 * Relative URLs are refused rather than resolved: the protocol requires absolute ones, and
 * guessing a base hides the error from the person who has to fix the file.
 */
export function readLoc(raw: string): LocReading {
  const href = plainLocHref(raw);
  if (href !== null) return { ok: true, href, host: plainLocHost(href) };
  return readLocByParser(trimXml(raw));
}

/**
 * {@link readLoc}'s href when the trimmed `<loc>` is already spelled as the parser would
 * (nearly every loc is), without a reading object (this runs per entry); null when the loc
 * needs {@link readLocByParser}. {@link plainLocHost} then gives its host.
 */
export function plainLocHref(raw: string): string | null {
  const href = plainHrefOnly(trimXml(raw));
  // Copied (as the parser's href was): a slice of the decoded input would keep the whole
  // piece of the document it came from alive for as long as the entry is held.
  return href === null ? null : ownCopy(href);
}

/**
 * The host of the loc {@link plainLocHref} just accepted, sliced from the href it returned;
 * valid until the next URL call.
 */
export const plainLocHost: (href: string) => string = lastPlainHost;

/**
 * {@link readLoc} of a trimmed value without the shortcut for plain URLs. Not for use
 * elsewhere; the differential property test holds the shortcut to it.
 */
export function readLocByParser(text: string): LocReading {
  if (text.length === 0)
    return { ok: false, code: 'empty-loc', message: 'empty <loc>; entry skipped' };
  const url = URL.parse(text);
  if (url === null) {
    return /^[a-z][a-z0-9+.-]*:/i.test(text)
      ? {
          ok: false,
          code: 'invalid-loc',
          message: `<loc> "${clip(text)}" is not a valid URL; entry skipped`,
        }
      : {
          ok: false,
          code: 'relative-loc',
          message: `<loc> "${clip(text)}" is not an absolute URL; entry skipped`,
        };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      ok: false,
      code: 'unsupported-loc',
      message: `<loc> "${clip(text)}" is not an http(s) URL; entry skipped`,
    };
  }
  return { ok: true, href: url.href, host: url.host };
}

/** A value cut short for a message. */
export function clip(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
