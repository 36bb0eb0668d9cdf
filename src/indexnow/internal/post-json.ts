import type { FetchFunction } from '../../http/index.ts';
import { Deadline } from '../../http/internal/deadline.ts';
import { LimitedBody } from '../../http/internal/limited-body.ts';

/** What the endpoint answered: its status, `Retry-After`, and the start of its body. */
export interface PostAnswer {
  readonly status: number;
  readonly retryAfter: string | null;
  /** Up to `excerptChars` characters of the body, trimmed; '' when there was none. */
  readonly excerpt: string;
}

export interface PostOptions {
  readonly fetch: FetchFunction;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly signal: AbortSignal | undefined;
}

const EXCERPT_CHARS = 500;

/**
 * POSTs `body` as JSON under a time cap (request and response body) and a size cap on the
 * response. http's fetchWithLimits only GETs, so this uses the same Deadline and LimitedBody
 * it is built from: the same caps, the same error codes (`timeout`, `too-large`, `network`)
 * and the caller's abort reason passed through. Redirects are not followed: an endpoint that
 * moved answers with its 3xx, reported as an unexpected status rather than re-POSTed to a
 * host the caller did not name.
 */
export async function postJson(
  url: string,
  body: string,
  options: PostOptions,
): Promise<PostAnswer> {
  options.signal?.throwIfAborted();
  const deadline = new Deadline(options.timeoutMs, options.signal);
  try {
    // A caller's `Content-Type`, in any case, is replaced rather than joined to ours.
    const headers = new Headers(options.headers);
    headers.set('content-type', 'application/json; charset=utf-8');
    const pending = options.fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: deadline.signal,
    });
    const response = await deadline.race(Promise.resolve(pending));
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      excerpt: await readExcerpt(
        new LimitedBody(response, deadline, options.maxResponseBytes, url),
      ),
    };
  } catch (error) {
    const failure = deadline.failure(error, url, 'request');
    deadline.stop();
    throw failure;
  }
}

/**
 * The start of the body, as text. Reading stops once the excerpt is full (leaving the loop
 * closes the connection). Once the status is in, the endpoint has answered: a body that
 * breaks off, runs out of time or is over the size cap still leaves that answer standing,
 * with what was read.
 */
async function readExcerpt(body: LimitedBody): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of body) {
      text += decoder.decode(chunk, { stream: true });
      if (text.length >= EXCERPT_CHARS * 2) break;
    }
    text += decoder.decode();
  } catch {
    // The answer stands; the excerpt is what arrived.
  }
  return text.trim().slice(0, EXCERPT_CHARS);
}
