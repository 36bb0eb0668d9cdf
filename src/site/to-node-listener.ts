import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { type Answer, isResponse } from './internal/answer.ts';
import { BufferPool } from './internal/buffer-pool.ts';
import { type ChunkSource, takeChunkSource, takeText } from './internal/chunked-body.ts';
import { RawHeaders, RESPOND_LIGHT, type RespondLight } from './internal/light-request.ts';
import { HOST, NO_HOST } from './internal/request-origin.ts';
import { CHUNK_BYTES } from './internal/sitemap-chunks.ts';

/** Any Web-standard handler: what `createSiteHandler` returns, a Hono app's `fetch`, ... */
export type FetchHandler = (request: Request) => Promise<Response>;

export interface NodeListenerOptions {
  /**
   * The `Allow` header of the 405 answered, without calling the handler, for a method a
   * Fetch `Request` cannot carry (`TRACE`, `TRACK`, `CONNECT`). Default `GET, HEAD`, the
   * methods `createSiteHandler` answers; give your application's own list otherwise.
   */
  readonly allow?: string;
}

/**
 * The buffers sitemap chunks are written into: each goes back to the pool once the socket
 * has taken its bytes, so a body of megabytes costs no allocation and no garbage.
 */
const POOL = new BufferPool(CHUNK_BYTES, 8);

/** Methods the Fetch standard forbids in a `Request` (the constructor throws). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * Adapts a `(Request) => Promise<Response>` handler to a Node `http.createServer`
 * listener. The request URL is built from the server's own scheme and a fixed host (the
 * `Host` header travels as a header, so a malformed one reaches the handler, which answers
 * 400, instead of breaking URL construction). The response body is streamed with
 * backpressure; a HEAD response sends headers only; a method a `Request` cannot carry
 * (`TRACE`) gets 405 with `Allow` (see {@link NodeListenerOptions}); a failing handler
 * gives 500.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * const handler = createSiteHandler({ root: 'content' });
 * createServer(toNodeListener(handler)).listen(8080, '127.0.0.1');
 * ```
 */
export function toNodeListener(
  handler: FetchHandler,
  options: NodeListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const allow = options.allow ?? 'GET, HEAD';
  return (req, res) => {
    if (FORBIDDEN_METHODS.has((req.method ?? '').toUpperCase())) {
      // The Request constructor would throw (and the answer be 500): refuse it as HTTP says.
      res.statusCode = 405;
      res.setHeader('allow', allow);
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.end('Method not allowed\n');
      return;
    }
    serve(handler, req, res).catch(() => {
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('content-type', 'text/plain; charset=utf-8');
        res.end('Internal error\n');
      } else {
        res.destroy();
      }
    });
  };
}

/** The path and query of an absolute-form request target, or `/`. */
function pathOf(target: string): string {
  const url = URL.parse(target);
  return url === null ? '/' : `${url.pathname}${url.search}`;
}

async function serve(
  handler: FetchHandler,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // The scheme is the connection's, whatever the request line says: an absolute-form target
  // (`GET https://host/robots.txt`) must not make a plain-HTTP server publish https URLs.
  const scheme = (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
  const requested = req.url ?? '/';
  const target = requested.startsWith('/') ? requested : pathOf(requested);
  // The URL's host is the Host header's when it is a plain host (what handlers of other
  // frameworks read), else a placeholder no origin is ever made of.
  const host = req.headers.host;
  const url = `${scheme}://${host !== undefined && HOST.test(host) ? host : NO_HOST}${target}`;
  const method = req.method ?? 'GET';
  const light = (handler as { [RESPOND_LIGHT]?: RespondLight })[RESPOND_LIGHT];
  if (light !== undefined && (method === 'GET' || method === 'HEAD') && target.startsWith('/')) {
    // waymark's own handler: the same answer without a `Request` (and its `Headers` and
    // signal) per request, for everything but documents.
    const answer = await light({ url, method, headers: new RawHeaders(req.rawHeaders) });
    if (answer !== null) {
      if (isResponse(answer)) await send(answer, method, res);
      else await sendAnswer(answer, method, res);
      return;
    }
  }
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const controller = new AbortController();
  // Aborted only when the client went away before the response finished: 'close' also
  // follows every completed response, and an abort there would cost a DOMException each.
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const request = new Request(url, {
    method,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
  // Into the request's own headers (the same checks as a `headers` init): not into a
  // `Headers` the constructor would copy again.
  const headers = request.headers;
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i] as string, raw[i + 1] as string);
    } catch {
      // A header value Headers refuses (Node is more lenient) is left out, not fatal.
    }
  }
  await send(await handler(request), method, res);
}

/**
 * Writes an answer of waymark's own handler as its `Response` would be written: headers in
 * the order `Headers` gives them (sorted names), then the text or the chunks.
 */
async function sendAnswer(answer: Answer, method: string, res: ServerResponse): Promise<void> {
  res.statusCode = answer.status;
  const headers = answer.headers;
  for (const name of Object.keys(headers).sort()) res.setHeader(name, headers[name] as string);
  if (method === 'HEAD' || (answer.text === null && answer.chunks === null)) {
    res.end();
  } else if (answer.text !== null) {
    res.end(answer.text);
  } else if (answer.chunks !== null) {
    await writeChunks(answer.chunks, res);
  }
}

/** Writes `response` as the answer to a request made with `method`. */
async function send(response: Response, method: string, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') continue;
    res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  if (method === 'HEAD' || response.body === null) {
    await response.body?.cancel();
    res.end();
    return;
  }
  const text = takeText(response);
  if (text !== null) {
    res.end(text);
    return;
  }
  const source = takeChunkSource(response);
  if (source !== null) {
    await writeChunks(source, res);
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
      if (!res.write(value)) await drained(res);
    }
    res.end();
  } finally {
    reader.releaseLock();
  }
}

/**
 * A body made by waymark's own handler, written from pooled buffers: each chunk is made
 * into a buffer from {@link POOL} when the socket can take it, and the buffer goes back
 * once written. The same bytes as reading the Web stream.
 */
async function writeChunks(source: ChunkSource, res: ServerResponse): Promise<void> {
  const taken: { buffer: Uint8Array | null } = { buffer: null };
  const take = (size: number): Uint8Array => {
    taken.buffer = POOL.take(size);
    return taken.buffer;
  };
  for (;;) {
    if (res.destroyed) return;
    taken.buffer = null;
    const chunk = source.next(take);
    const buffer = taken.buffer;
    if (chunk === null) {
      if (buffer !== null) POOL.give(buffer);
      res.end();
      return;
    }
    // Given back only once written: until then the socket may still read from it.
    const more = res.write(chunk, (error) => {
      if (error == null && buffer !== null) POOL.give(buffer);
    });
    if (!more) await drained(res);
  }
}

/** Resolves on 'drain', or on 'close' when the client went away. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const go = (): void => {
      res.off('drain', go);
      res.off('close', go);
      resolve();
    };
    res.on('drain', go);
    res.on('close', go);
  });
}
