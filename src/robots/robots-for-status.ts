import { parseRobots } from './parse-robots.ts';
import { RobotsTxt } from './robots-txt.ts';
import type { ParseRobotsOptions } from './types.ts';

/** What a robots.txt fetch ended with: an HTTP status, or `'network-error'` when none came. */
export type RobotsFetchStatus = number | 'network-error';

/**
 * The policy RFC 9309 section 2.3.1 prescribes for a robots.txt fetch outcome, so a crawler
 * never invents its own: 2xx parses `body`; 4xx ("unavailable") allows everything; 5xx,
 * network failure ("unreachable") and 429 (which Google also treats as a server error)
 * disallow everything. A 3xx that reaches this point means redirects were exhausted (the
 * RFC asks for at least five): that is "unavailable". Anything else is "unreachable".
 *
 * @example
 * ```ts
 * const response = await fetch('https://example.com/robots.txt');
 * const robots = robotsForStatus(response.status, await response.bytes(), { url: response.url });
 * ```
 */
export function robotsForStatus(
  status: RobotsFetchStatus,
  body: string | Uint8Array = '',
  options: ParseRobotsOptions = {},
): RobotsTxt {
  if (typeof status === 'number' && status >= 200 && status < 300)
    return parseRobots(body, options);
  const unavailable = typeof status === 'number' && status !== 429 && status >= 300 && status < 500;
  const source = unavailable ? 'unavailable' : 'unreachable';
  const message = unavailable
    ? `robots.txt answered ${status}: treated as unavailable, everything is allowed`
    : `robots.txt ${status === 'network-error' ? 'could not be fetched' : `answered ${status}`}: treated as unreachable, everything is disallowed`;
  return new RobotsTxt({
    sitemaps: [],
    diagnostics: [{ code: `robots-${source}`, severity: 'info', message, line: 1, column: 1 }],
    source,
  });
}
