/** The request's origin (`https://example.com`), or why it has none. */
export type RequestOrigin =
  | { readonly ok: true; readonly origin: string }
  | { readonly ok: false; readonly message: string };

/** Longest Host accepted: a 253-character DNS name, `:`, a port. */
const MAX_HOST_LENGTH = 260;

// A DNS name or IPv4 address, or a bracketed IPv6 address, and an optional port. Anything
// else (quotes, angle brackets, spaces, CR/LF, userinfo, paths) is refused before parsing.
const HOST =
  /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?\.?|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * The absolute origin of a request: the scheme of its URL and its `Host` header (the
 * URL's host when there is none). With `trustProxy`, `Forwarded` (`proto=`, `host=`) or
 * else `X-Forwarded-Proto` / `X-Forwarded-Host` win, first value only, checked the same
 * way. A host must be a DNS name, an IPv4 or a bracketed IPv6 address with an optional
 * port, at most {@link MAX_HOST_LENGTH} characters, that URL parsing accepts as it is.
 */
export function requestOrigin(request: Request, trustProxy: boolean): RequestOrigin {
  const url = URL.parse(request.url);
  if (url === null) return { ok: false, message: 'the request URL is not absolute' };
  let scheme = url.protocol.slice(0, -1);
  let host = request.headers.get('host') ?? url.host;
  if (trustProxy) {
    const forwarded = request.headers.get('forwarded');
    if (forwarded !== null) {
      const first = parseForwarded(forwarded.split(',')[0] ?? '');
      if (first.proto !== undefined) scheme = first.proto.toLowerCase();
      if (first.host !== undefined) host = first.host;
    } else {
      const proto = request.headers.get('x-forwarded-proto');
      const forwardedHost = request.headers.get('x-forwarded-host');
      if (proto !== null) scheme = (proto.split(',')[0] ?? '').trim().toLowerCase();
      if (forwardedHost !== null) host = (forwardedHost.split(',')[0] ?? '').trim();
    }
  }
  if (scheme !== 'http' && scheme !== 'https') {
    return {
      ok: false,
      message: `the scheme ${JSON.stringify(scheme.slice(0, 20))} is not http or https`,
    };
  }
  return authorityOrigin(scheme, host);
}

/** `scheme://host` when `host` is a plain authority, normalised as URL parsing writes it. */
function authorityOrigin(scheme: string, host: string): RequestOrigin {
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
function parseForwarded(element: string): { proto?: string; host?: string } {
  const result: { proto?: string; host?: string } = {};
  for (const pair of element.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    const name = pair.slice(0, at).trim().toLowerCase();
    let value = pair.slice(at + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2)
      value = value.slice(1, -1);
    if (name === 'proto') result.proto = value;
    else if (name === 'host') result.host = value;
  }
  return result;
}
