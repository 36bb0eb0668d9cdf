import { type OpenedRequest, openRequest } from '../../http/internal/open-request.ts';
import { DEFAULT_MAX_ROBOTS_BYTES, type RobotsTxt, robotsForStatus } from '../../robots/index.ts';
import { readUpTo } from '../../shared/bytes.ts';
import { failureCause } from './failure-cause.ts';
import type { WaitForTurn } from './host-turn.ts';
import { type RequestContext, requestOptions } from './request-context.ts';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** RFC 9309 2.3.1.2: follow at least five redirects; past that, the file is unavailable. */
const MAX_ROBOTS_REDIRECTS = 5;

export interface RobotsFetchResult {
  readonly robots: RobotsTxt;
  /** The status that decided, or 'network-error'. */
  readonly status: number | 'network-error';
  /** For a network error, why (`ECONNREFUSED`, `timeout`, ...); otherwise null. */
  readonly detail: string | null;
  /** Where the file was read, after redirects. */
  readonly url: string;
  /** The bytes read (at most what RFC 9309 says to read), for a 2xx; otherwise null. */
  readonly body: Uint8Array | null;
}

/**
 * Fetches `origin`/robots.txt and turns the outcome into a policy exactly as RFC 9309
 * prescribes (through `robotsForStatus`): redirects followed one hop at a time, five at
 * most; bytes past 500 KiB not read; 4xx allows all, 5xx and network failure disallow all.
 * With `waitForTurn`, each request waits for its host's turn first.
 */
export async function fetchRobots(
  origin: string,
  context: RequestContext,
  waitForTurn?: WaitForTurn,
): Promise<RobotsFetchResult> {
  let url = `${origin}/robots.txt`;
  let lastStatus = 301;
  for (let hop = 0; hop <= MAX_ROBOTS_REDIRECTS; hop++) {
    let response: OpenedRequest;
    try {
      response = await openRequest(url, {
        ...requestOptions(context, 'text/plain, */*;q=0.5', waitForTurn),
        followRedirects: false,
        // The body is cut at the RFC's limit below; this cap only stops a runaway body.
        maxBytes: Number.MAX_SAFE_INTEGER,
      });
    } catch (error) {
      context.signal?.throwIfAborted();
      return networkError(error, url);
    }
    const location = response.header('location');
    if (REDIRECTS.has(response.status) && location !== null) {
      await response.cancel();
      lastStatus = response.status;
      const next = URL.parse(location, url);
      if (next === null) return statusResult(response.status, url);
      url = next.href;
      continue;
    }
    if (response.status < 200 || response.status >= 300) {
      await response.cancel();
      return statusResult(response.status, url);
    }
    try {
      const body = await readUpTo(response.body, DEFAULT_MAX_ROBOTS_BYTES + 1);
      return {
        robots: robotsForStatus(response.status, body, { url }),
        status: response.status,
        detail: null,
        url,
        body,
      };
    } catch (error) {
      context.signal?.throwIfAborted();
      return networkError(error, url);
    }
  }
  // Redirects exhausted: RFC 9309 lets the crawler assume the file is unavailable.
  return statusResult(lastStatus, url);
}

function statusResult(status: number, url: string): RobotsFetchResult {
  return { robots: robotsForStatus(status), status, detail: null, url, body: null };
}

function networkError(error: unknown, url: string): RobotsFetchResult {
  return {
    robots: robotsForStatus('network-error'),
    status: 'network-error',
    detail: failureCause(error),
    url,
    body: null,
  };
}
