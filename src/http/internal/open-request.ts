import { type FetchFunction, fetchTransport } from '../fetch-with-limits.ts';
import { type Hop, openFollowing, requestUrl, type Transport } from './follow-redirects.ts';
import { nodeTransport } from './node-open.ts';

/** Options of {@link openRequest}: the caps already checked, the header fields in lower case. */
export interface OpenRequestOptions {
  /** The caller's fetch; undefined for waymark's own node:http(s) transport. */
  readonly fetch: FetchFunction | undefined;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly followRedirects: boolean;
  readonly headers: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal | undefined;
  /**
   * Awaited before each request of the chain is sent (a crawl waiting for the host's turn).
   * The wait counts toward `timeoutMs`: `signal` fires when the time is up (or the caller's
   * signal fires), and nothing is sent after it has.
   */
  readonly beforeSend?: ((url: string, signal: AbortSignal) => Promise<void>) | undefined;
}

/** The final response of {@link openRequest}. */
export interface OpenedRequest {
  /** After redirects, without a fragment. */
  readonly url: string;
  readonly redirects: readonly string[];
  readonly status: number;
  /** The field's values joined with ", " (as `Headers.get`), or null; `name` in lower case. */
  header(name: string): string | null;
  /**
   * Each field's value on its own (see `Hop.fields`); null over a `fetch`, whose `Headers`
   * join them.
   */
  headerFields(name: string): string[] | null;
  /** Decoded, under the caps; iterable once. */
  readonly body: AsyncIterable<Uint8Array>;
  /** Drops the rest of the body and closes the connection. */
  cancel(): Promise<void>;
}

/**
 * A GET under the caps of `openWithLimits`, with its outcomes, sent over the caller's `fetch`
 * when there is one and otherwise over node:http(s), which does not load Node's fetch (undici:
 * about 12 MB of resident memory) and costs less per request than its Web streams. For
 * waymark's own clients (the crawler), which hand over only what both transports give.
 */
export async function openRequest(
  url: string,
  options: OpenRequestOptions,
): Promise<OpenedRequest> {
  const transport: Transport<Hop> =
    options.fetch === undefined ? nodeTransport : fetchTransport(options.fetch);
  const { beforeSend } = options;
  const {
    url: finalUrl,
    redirects,
    response,
  } = await openFollowing(
    requestUrl(url),
    options.headers,
    options,
    beforeSend === undefined
      ? transport
      : async (request) => {
          await beforeSend(request.url, request.deadline.signal);
          request.deadline.signal.throwIfAborted();
          return transport(request);
        },
  );
  return {
    url: finalUrl,
    redirects,
    status: response.status,
    header: (name) => response.header(name),
    headerFields: (name) => response.fields?.(name) ?? null,
    body: response.body,
    cancel: () => response.cancel(),
  };
}
