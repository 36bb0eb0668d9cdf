import type { LightRequest } from './light-request.ts';

/** The request's origin (`https://example.com`), or why it has none. */
export type RequestOrigin =
  | { readonly ok: true; readonly origin: string }
  | { readonly ok: false; readonly message: string };

/**
 * The host of the URL `toNodeListener` builds for a request without a usable `Host` header
 * (`.invalid` is reserved, RFC 2606: no real request names it): a request without one
 * (HTTP/1.0) has no host, rather than an invented `localhost` in every published URL.
 */
export const NO_HOST = 'no-host.invalid';

/** Longest Host accepted: a 253-character DNS name, `:`, a port. */
const MAX_HOST_LENGTH = 260;

// A DNS name or IPv4 address, or a bracketed IPv6 address, and an optional port. Anything
// else (quotes, angle brackets, spaces, CR/LF, userinfo, paths) is refused before parsing.
export const HOST =
  /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?\.?|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/** What decides a request's origin: a fixed one, or the request's headers. */
export interface OriginPolicy {
  readonly origin: string | null;
  readonly trustProxy: boolean;
}

/**
 * The absolute origin of a request. A configured `origin` wins over everything the request
 * says. Otherwise: the scheme of its URL and its `Host` header (the URL's host when there
 * is none); with `trustProxy`, the last element of `Forwarded` (`proto=`, `host=`) and the
 * last value of `X-Forwarded-Proto` / `X-Forwarded-Host`: the ones the nearest proxy
 * appended, never a value the client put first. When both header families name a host
 * (or a scheme) and they differ, the request is refused: a client must not pick the
 * family its proxy does not clean. A host must be a DNS name, an IPv4 or a bracketed IPv6
 * address with an optional port, at most {@link MAX_HOST_LENGTH} characters, that URL
 * parsing accepts as it is.
 */
export function requestOrigin(
  request: LightRequest,
  policy: OriginPolicy,
  /** `URL.parse(request.url)` when the caller has it already. */
  url: URL | null = URL.parse(request.url),
): RequestOrigin {
  if (policy.origin !== null) return { ok: true, origin: policy.origin };
  if (url === null) return { ok: false, message: 'the request URL is not absolute' };
  let scheme = url.protocol.slice(0, -1);
  let host = request.headers.get('host') ?? (url.hostname === NO_HOST ? null : url.host);
  if (policy.trustProxy) {
    const forwarded = request.headers.get('forwarded');
    const element = forwarded === null ? {} : parseForwarded(lastElement(forwarded));
    if (element === null) return { ok: false, message: 'Forwarded names a parameter twice' };
    const xProto = request.headers.get('x-forwarded-proto');
    const xHost = request.headers.get('x-forwarded-host');
    const proto = agreed(element.proto, xProto === null ? undefined : lastOf(xProto));
    const forwardedHost = agreed(element.host, xHost === null ? undefined : lastOf(xHost));
    if (proto === null || forwardedHost === null) {
      return { ok: false, message: 'Forwarded and X-Forwarded-* disagree' };
    }
    if (proto !== undefined) scheme = proto.toLowerCase();
    if (forwardedHost !== undefined) host = forwardedHost;
  }
  if (scheme !== 'http' && scheme !== 'https') {
    return {
      ok: false,
      message: `the scheme ${JSON.stringify(scheme.slice(0, 20))} is not http or https`,
    };
  }
  if (host === null) return { ok: false, message: 'the request has no Host header' };
  return authorityOrigin(scheme, host);
}

/**
 * `text` as a fixed public origin (`https://www.example.com`, a trailing `/` allowed), or
 * null when it is not an http(s) origin whose host a sitemap can carry: no path, query,
 * fragment, user or password.
 *
 * @example
 * ```ts
 * fixedOrigin('https://WWW.example.com:443/'); // 'https://www.example.com'
 * fixedOrigin('https://example.com/blog'); // null
 * ```
 */
export function fixedOrigin(text: string): string | null {
  const url = URL.parse(text);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  if (!/^https?:\/\/[^/?#@]+\/?$/i.test(text) || url.username !== '' || url.password !== '') {
    return null;
  }
  const checked = authorityOrigin(url.protocol.slice(0, -1), url.host);
  return checked.ok ? checked.origin : null;
}

/** The last comma-separated value, trimmed: what the nearest proxy appended. */
function lastOf(header: string): string {
  const at = header.lastIndexOf(',');
  return (at < 0 ? header : header.slice(at + 1)).trim();
}

/**
 * {@link lastOf} for `Forwarded`, whose values may be quoted strings: a comma inside one
 * (`host="a.example, b.example"`, RFC 7239) separates nothing.
 */
function lastElement(header: string): string {
  return (splitOutsideQuotes(header, ',').at(-1) ?? '').trim();
}

/** `text` split at `separator` where it stands outside a quoted string (with `\` escapes). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** One value from two sources: either one when only it is given, null when they differ. */
function agreed(a: string | undefined, b: string | undefined): string | undefined | null {
  if (a === undefined) return b;
  if (b === undefined || a.toLowerCase() === b.toLowerCase()) return a;
  return null;
}

/**
 * `scheme://host` when `host` is a plain authority, normalised as URL parsing writes it.
 * Kept per scheme and host (a function of those two strings alone), as a handful of hosts
 * serve a site; hostile `Host` headers cannot grow it past {@link MAX_KNOWN_AUTHORITIES}.
 */
function authorityOrigin(scheme: string, host: string): RequestOrigin {
  const key = `${scheme} ${host}`;
  const known = knownAuthorities.get(key);
  if (known !== undefined) return known;
  const checked = checkAuthority(scheme, host);
  if (knownAuthorities.size >= MAX_KNOWN_AUTHORITIES) knownAuthorities.clear();
  knownAuthorities.set(key, checked);
  return checked;
}

const knownAuthorities = new Map<string, RequestOrigin>();
const MAX_KNOWN_AUTHORITIES = 64;

function checkAuthority(scheme: string, host: string): RequestOrigin {
  const parsed =
    host.length > 0 && host.length <= MAX_HOST_LENGTH && HOST.test(host)
      ? URL.parse(`${scheme}://${host}/`)
      : null;
  if (
    parsed === null ||
    parsed.pathname !== '/' ||
    parsed.username !== '' ||
    parsed.password !== ''
  ) {
    return { ok: false, message: 'the Host header is not a valid host name and port' };
  }
  return { ok: true, origin: parsed.origin };
}

/** The `proto` and `host` of one `Forwarded` element (RFC 7239), quotes removed. */
function parseForwarded(element: string): { proto?: string; host?: string } | null {
  const result: { proto?: string; host?: string } = {};
  const names = new Set<string>();
  for (const pair of splitOutsideQuotes(element, ';')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    const name = pair.slice(0, at).trim().toLowerCase();
    // RFC 7239 4: a parameter occurs at most once per element; a second one is a client's.
    if (names.has(name)) return null;
    names.add(name);
    let value = pair.slice(at + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2)
      value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    if (name === 'proto') result.proto = value;
    else if (name === 'host') result.host = value;
  }
  return result;
}
