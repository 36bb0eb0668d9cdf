import { WaymarkError } from '../../shared/waymark-error.ts';
import type { IndexNowRefusedUrl } from '../types.ts';

/** Which URLs a submission may carry: its host, and the key file's folder when it has one. */
export interface SubmissionScope {
  /** The host as sent in the body: lower case, IDNA (punycode), with a port if one was given. */
  readonly host: string;
  readonly keyLocation: string | undefined;
  /** The path every URL must start with: `/` or the key file's folder (`/catalog/`). */
  readonly pathPrefix: string;
}

/** The URLs to send, in first-seen order, and those not sent. */
export interface PreparedUrls {
  readonly urls: string[];
  readonly refused: IndexNowRefusedUrl[];
  readonly duplicates: number;
}

/**
 * The host and key location, checked: a caller's mistake here would make every batch fail,
 * so it throws `invalid-argument` before any request.
 */
export function submissionScope(host: string, keyLocation: string | undefined): SubmissionScope {
  const parsedHost = URL.parse(`http://${host}/`);
  if (
    // (An empty host does not parse; user and password need an `@`, refused below.)
    parsedHost === null ||
    // `example.com/path`, `example.com?x`, `http://example.com` are not a host.
    parsedHost.href !== `http://${parsedHost.host}/` ||
    /[/?#@\s\\]/.test(host)
  ) {
    throw new WaymarkError(
      'invalid-argument',
      `IndexNow host must be a host name such as www.example.com (no scheme or path), got ${JSON.stringify(host)}`,
    );
  }
  const normalisedHost = parsedHost.host;
  if (keyLocation === undefined) return { host: normalisedHost, keyLocation, pathPrefix: '/' };
  const location = URL.parse(keyLocation);
  if (location === null || (location.protocol !== 'http:' && location.protocol !== 'https:')) {
    throw new WaymarkError(
      'invalid-argument',
      `IndexNow keyLocation must be an http(s) URL, got ${JSON.stringify(keyLocation)}`,
    );
  }
  if (!onHost(location, normalisedHost)) {
    throw new WaymarkError(
      'invalid-argument',
      `IndexNow keyLocation must be on the host ${normalisedHost}, got ${keyLocation}`,
    );
  }
  const pathPrefix = location.pathname.slice(0, location.pathname.lastIndexOf('/') + 1);
  return { host: normalisedHost, keyLocation: location.href, pathPrefix };
}

/**
 * The URLs to send: each parsed, without its fragment (never part of what a server sees),
 * http(s), on the host and under the key file's folder; each distinct URL once.
 */
export function prepareUrls(urls: readonly string[], scope: SubmissionScope): PreparedUrls {
  const seen = new Set<string>();
  const kept: string[] = [];
  const refused: IndexNowRefusedUrl[] = [];
  let duplicates = 0;
  for (const url of urls) {
    const reason = refusal(url, scope);
    if (typeof reason === 'string') {
      refused.push({ url, reason });
      continue;
    }
    if (seen.has(reason.href)) {
      duplicates++;
      continue;
    }
    seen.add(reason.href);
    kept.push(reason.href);
  }
  return { urls: kept, refused, duplicates };
}

/** Why `url` may not be sent, or the URL to send. */
function refusal(url: string, scope: SubmissionScope): string | URL {
  const parsed = URL.parse(url);
  if (parsed === null) return 'not a URL';
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'not an http(s) URL';
  // Submitted URLs go to a shared endpoint that hands them to every engine.
  if (parsed.username !== '' || parsed.password !== '') return 'carries a user name or password';
  if (!onHost(parsed, scope.host)) return `not on the host ${scope.host}`;
  if (!parsed.pathname.startsWith(scope.pathPrefix)) {
    return `outside ${scope.pathPrefix}, the folder of the key file (keyLocation)`;
  }
  parsed.hash = '';
  return parsed;
}

/**
 * `url` is on `host`: same host name, and same port when `host` names one (a default port is
 * no port). http and https URLs of one host may be mixed, as IndexNow allows.
 */
function onHost(url: URL, host: string): boolean {
  if (host.includes(':') && !host.startsWith('[')) return url.host === host;
  if (host.startsWith('[') && host.includes(']:')) return url.host === host;
  return url.hostname === host;
}
