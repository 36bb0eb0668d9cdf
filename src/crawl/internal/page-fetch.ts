import { retryAfterMs } from '../../http/index.ts';
import { type OpenedRequest, openRequest } from '../../http/internal/open-request.ts';
import { errorMessage } from '../../shared/error-message.ts';
import { failureCause } from './failure-cause.ts';
import { HtmlExtractor, type PageFacts } from './html-extract.ts';
import { isoDate } from './http-date.ts';
import { type RequestContext, requestOptions } from './request-context.ts';

/** What any response's headers said about the page, for the crawl report. */
export interface ResponseHeaderFacts {
  /** The media type, lower case, without parameters; null when there was no Content-Type. */
  readonly mediaType: string | null;
  /** `Last-Modified` as W3C Datetime, or null. */
  readonly lastModified: string | null;
}

export type PageOutcome =
  | {
      readonly kind: 'html';
      readonly status: number;
      readonly facts: PageFacts;
      readonly headerNoindex: boolean;
      readonly headerNofollow: boolean;
      readonly header: ResponseHeaderFacts;
    }
  | {
      readonly kind: 'redirect';
      readonly status: number;
      readonly location: string | null;
      readonly header: ResponseHeaderFacts;
    }
  | {
      readonly kind: 'retry';
      readonly status: number;
      readonly afterMs: number | null;
      readonly header: ResponseHeaderFacts;
    }
  | { readonly kind: 'status'; readonly status: number; readonly header: ResponseHeaderFacts }
  | {
      readonly kind: 'non-html';
      readonly status: number;
      readonly contentType: string;
      readonly header: ResponseHeaderFacts;
    }
  | {
      readonly kind: 'failed';
      readonly message: string;
      /** Short and stable: `ECONNREFUSED`, `timeout`, ... (see `failureCause`). */
      readonly cause: string;
    };

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const PAGE_ACCEPT = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.1';
/** Bodies up to this size that the crawl does not want are read anyway, to keep the connection. */
const DRAIN_MAX_BYTES = 64 * 1024;
/** ... as long as they arrive within this time; a slower body costs its connection instead. */
const DRAIN_MAX_MS = 1000;

/**
 * Fetches one page without following redirects (the crawler checks each target against
 * robots.txt and the origin before it is fetched), and reads an HTML body as it streams in.
 */
export async function fetchPage(url: string, options: RequestContext): Promise<PageOutcome> {
  let response: OpenedRequest;
  try {
    response = await openPage(url, options);
  } catch (error) {
    options.signal?.throwIfAborted();
    return failed(error);
  }
  const { status } = response;
  const contentType = response.header('content-type') ?? '';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const lastModified = isoDate(response.header('last-modified'));
  const header = { mediaType: mediaType === '' ? null : mediaType, lastModified };
  if (status >= 300 && status < 400) {
    await discard(response);
    return { kind: 'redirect', status, location: response.header('location'), header };
  }
  if (status === 429 || status === 503) {
    await discard(response);
    return {
      kind: 'retry',
      status,
      afterMs: retryAfterMs(response.header('retry-after'), options.now()),
      header,
    };
  }
  if (status !== 200) {
    await discard(response);
    return { kind: 'status', status, header };
  }
  // No Content-Type at all: read it and let the HTML reader decide, as browsers sniff.
  if (mediaType !== '' && !HTML_TYPES.has(mediaType)) {
    await discard(response);
    return { kind: 'non-html', status, contentType: mediaType, header };
  }
  const extractor = new HtmlExtractor({ url, ...(contentType ? { contentType } : {}) });
  try {
    for await (const chunk of response.body) extractor.write(chunk);
  } catch (error) {
    options.signal?.throwIfAborted();
    return failed(error);
  }
  const fields = response.headerFields('x-robots-tag');
  const robotsHeader =
    fields !== null ? readRobotsHeader(fields, 'field') : joinedRobotsHeader(response);
  return {
    kind: 'html',
    status,
    facts: extractor.end(),
    headerNoindex: robotsHeader.noindex,
    headerNofollow: robotsHeader.nofollow,
    header,
  };
}

/**
 * The page's response, without following a redirect: over node:http(s) with the crawl's own
 * transport (no `fetch` given), else over the caller's `fetch`. Both give the same outcomes
 * (see follow-redirects.ts and page-fetch-transports.test.ts).
 */
function openPage(url: string, options: RequestContext): Promise<OpenedRequest> {
  return openRequest(url, { ...requestOptions(options, PAGE_ACCEPT), followRedirects: false });
}

function failed(error: unknown): PageOutcome {
  return { kind: 'failed', message: errorMessage(error), cause: failureCause(error) };
}

/**
 * Drops a body the crawl does not need. A small one (a redirect's, a 404 page) is read to
 * its end, so the connection goes back to the pool for the next request; cancelling it
 * would close the connection and cost a new one. A large or slow body is cancelled.
 */
async function discard(response: OpenedRequest): Promise<void> {
  const length = Number(response.header('content-length') ?? Number.NaN);
  if (!(length <= DRAIN_MAX_BYTES)) {
    await response.cancel();
    return;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const slow = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, DRAIN_MAX_MS);
  });
  const drained = (async () => {
    for await (const _chunk of response.body) {
      // Content-Length is checked by the body's own size cap.
    }
  })().catch(() => {});
  await Promise.race([drained, slow]);
  clearTimeout(timer);
  // Does nothing when the body was read to its end.
  await response.cancel();
}

/** `X-Robots-Tag` over a transport that joins its fields (see {@link readRobotsHeader}). */
function joinedRobotsHeader(response: OpenedRequest): { noindex: boolean; nofollow: boolean } {
  const joined = response.header('x-robots-tag');
  return readRobotsHeader(joined === null ? [] : [joined], 'directive');
}

/** Robots directives written `name: value` (Google's list), which a bot prefix is not. */
const VALUE_DIRECTIVES = new Set([
  'unavailable_after',
  'max-snippet',
  'max-image-preview',
  'max-video-preview',
]);

/**
 * `X-Robots-Tag` directives that apply to every crawler, or to Google's (the sitemap is for
 * search engines): `noindex`, `nofollow`, `none`. `otherbot: noindex` applies to another bot.
 * A bot prefix holds to its field's end (`'field'`): the next field (`X-Robots-Tag: bingbot:
 * nofollow` then `X-Robots-Tag: noindex`) is for every bot. Where the fields arrive joined
 * (over a `fetch`) their ends are unknown, so a prefix holds for the one directive after it
 * (`'directive'`): a `noindex` that may be meant for every bot is never read as another's.
 */
export function readRobotsHeader(
  fields: readonly string[],
  prefixHolds: 'field' | 'directive',
): { noindex: boolean; nofollow: boolean } {
  let noindex = false;
  let nofollow = false;
  for (const value of fields) {
    let appliesToUs = true;
    for (const raw of value.split(',')) {
      let part = raw.trim().toLowerCase();
      const colon = part.indexOf(':');
      // `max-snippet: 0` is a directive with a value, not a bot named max-snippet.
      if (colon >= 0 && !VALUE_DIRECTIVES.has(part.slice(0, colon).trim())) {
        const bot = part.slice(0, colon).trim();
        appliesToUs = bot === 'googlebot' || bot === '*';
        part = part.slice(colon + 1).trim();
      } else if (prefixHolds === 'directive') {
        appliesToUs = true;
      }
      if (!appliesToUs) continue;
      if (part === 'noindex' || part === 'none') noindex = true;
      if (part === 'nofollow' || part === 'none') nofollow = true;
    }
  }
  return { noindex, nofollow };
}
