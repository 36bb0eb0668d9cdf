// waymark's own transport: one GET over node:http(s) with a keep-alive pool, used by the
// crawler (pages, robots.txt, sitemaps, feeds) when its caller gave no `fetch`. Through
// `openFollowing` it has the caps and outcomes of `openWithLimits` over Node's fetch, for
// less: fetch's Request, Response, Headers and Web streams (a promise and several objects per
// chunk) cost more than a page's HTML parsing, and loading fetch (undici) costs a process
// about 12 MB of resident memory.
//
// What fetch would do and this does too: the same request headers (fetch adds
// `accept-language: *`, `sec-fetch-mode: cors` and `accept-encoding`, and `user-agent` and
// `accept` when the caller sets none); `Content-Encoding` undone as fetch undoes it (see
// content-decoders.ts); header values read as `Headers.get` reads them (every field of that
// name, joined with ", "); errors wrapped as fetch wraps them (`TypeError: fetch failed`,
// `terminated` while reading the body), and a connection the server closed named as undici
// names it, so a result's message and cause read the same.

import type { IncomingMessage } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import { type AgentPool, keepAliveAgent, requestFor } from '../../shared/node/http-modules.ts';
import { WaymarkError } from '../../shared/waymark-error.ts';
import { decodersFor, isCutShort } from './content-decoders.ts';
import type { Deadline } from './deadline.ts';
import type { Hop, Transport } from './follow-redirects.ts';
import { formatBytes } from './format-limit.ts';

/** Statuses whose response has no body (fetch hands over a null body). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** waymark's own keep-alive pool. */
const pool: AgentPool = {};

/**
 * The transport over node:http(s), with the header fields Node's fetch would add unless the
 * caller set them.
 */
export const nodeTransport: Transport<Hop> = async ({
  target,
  headers,
  deadline,
  maxBytes,
  where,
}) => {
  const secure = target.protocol === 'https:';
  try {
    // Refused as fetch refuses it (before sending), not sent without its user info.
    if (target.username !== '' || target.password !== '') {
      throw new TypeError(
        `Request cannot be constructed from a URL that includes credentials: ${target.href}`,
      );
    }
    const incoming = await send(target, secure, headers, deadline.signal);
    return new NodeResponse(incoming, deadline, maxBytes, where);
  } catch (error) {
    throw asFetchError(error, 'fetch failed');
  }
};

function send(
  target: URL,
  secure: boolean,
  headers: Readonly<Record<string, string>>,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const hostname = target.hostname;
    const request = requestFor(secure)({
      protocol: target.protocol,
      // node:http wants an IPv6 literal without its brackets.
      hostname: hostname.startsWith('[') ? hostname.slice(1, -1) : hostname,
      port: target.port,
      path: `${target.pathname}${target.search}`,
      method: 'GET',
      headers: {
        'user-agent': 'node',
        accept: '*/*',
        'accept-language': '*',
        'sec-fetch-mode': 'cors',
        'accept-encoding': secure ? 'br, gzip, deflate' : 'gzip, deflate',
        ...headers,
      },
      agent: keepAliveAgent(pool, secure),
    });
    // The signal is watched here rather than given to node:http, which watches it through
    // stream helpers costing several closures and listeners per request. Let go once the
    // request is over: its socket may be serving another request by the time it fires.
    const abort = () => request.destroy(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    request.once('close', () => signal.removeEventListener('abort', abort));
    request.once('error', reject);
    request.once('response', resolve);
    request.end();
  });
}

class NodeResponse implements Hop, AsyncIterableIterator<Uint8Array, undefined> {
  readonly status: number;
  readonly body: AsyncIterable<Uint8Array> = this;
  readonly #incoming: IncomingMessage;
  readonly #deadline: Deadline;
  readonly #maxBytes: number;
  readonly #where: string;
  #chunks: AsyncIterator<Buffer> | null = null;
  #total = 0;
  #finished = false;

  constructor(incoming: IncomingMessage, deadline: Deadline, maxBytes: number, where: string) {
    this.#incoming = incoming;
    this.#deadline = deadline;
    this.#maxBytes = maxBytes;
    this.#where = where;
    this.status = incoming.statusCode ?? 0;
  }

  header(name: string): string | null {
    const values = this.fields(name);
    return values.length === 0 ? null : values.join(', ');
  }

  fields(name: string): string[] {
    const raw = this.#incoming.rawHeaders;
    const values: string[] = [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const field = raw[i] as string;
      if (field.length !== name.length || field.toLowerCase() !== name) continue;
      values.push(trimHttpWhitespace(raw[i + 1] as string));
    }
    return values;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (this.#finished) return { done: true, value: undefined };
    try {
      const chunks = this.#chunks ?? this.#open();
      if (chunks === null) {
        this.#finish(false);
        return { done: true, value: undefined };
      }
      const result = await this.#deadline.race(chunks.next());
      if (result.done === true) {
        this.#finish(false);
        return { done: true, value: undefined };
      }
      const chunk = result.value;
      this.#total += chunk.byteLength;
      if (this.#total > this.#maxBytes) throw this.#tooLarge();
      return { done: false, value: chunk };
    } catch (error) {
      const cut = isCutShort(error)
        ? new Error('the body is cut short: its compressed stream ends before its end')
        : error;
      const failure = this.#deadline.failure(asFetchError(cut, 'terminated'), this.#where, 'body');
      this.#finish(true);
      throw failure;
    }
  }

  async return(): Promise<IteratorResult<Uint8Array, undefined>> {
    this.#finish(true);
    return { done: true, value: undefined };
  }

  async cancel(): Promise<void> {
    this.#finish(true);
  }

  release(): void {
    if (this.#finished) return;
    this.#finished = true;
    if (!this.#letDrain()) this.#incoming.destroy();
  }

  /**
   * Lets a body that has wholly arrived, none of it read, drain, so its connection goes back
   * to the pool (destroying it would close the connection: a new one for the next request,
   * where fetch keeps it); true when it did.
   */
  #letDrain(): boolean {
    if (this.#chunks !== null || !this.#incoming.complete) return false;
    this.#incoming.resume();
    return true;
  }

  /** The chunks, or null for a status without a body; throws when the declared size is over. */
  #open(): AsyncIterator<Buffer> | null {
    const encoding = this.header('content-encoding');
    const declared = declaredLength(encoding, this.header('content-length'));
    if (declared !== null && declared > this.#maxBytes) throw this.#tooLarge();
    if (NULL_BODY_STATUSES.has(this.status)) {
      this.#incoming.resume();
      return null;
    }
    const decoders = decodersFor(encoding);
    const source: Readable =
      decoders.length === 0
        ? this.#incoming
        : (pipeline([this.#incoming, ...decoders], () => {}) as unknown as Readable);
    this.#chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    return this.#chunks;
  }

  #tooLarge(): WaymarkError {
    return new WaymarkError(
      'too-large',
      `response larger than ${formatBytes(this.#maxBytes)}: ${this.#where}`,
    );
  }

  #finish(early: boolean): void {
    if (this.#finished) return;
    this.#finished = true;
    if (!early || this.#letDrain()) {
      this.#deadline.end();
      return;
    }
    this.#incoming.destroy();
    this.#chunks?.return?.().catch(() => {});
    this.#deadline.stop();
  }
}

/** As `Headers` keeps a value: without leading and trailing tabs, spaces, CR and LF. */
function trimHttpWhitespace(value: string): string {
  return /^[\t\n\r ]|[\t\n\r ]$/.test(value)
    ? value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '')
    : value;
}

/** `Content-Length` when it states the size of what is handed over (nothing to decode). */
function declaredLength(encoding: string | null, length: string | null): number | null {
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') return null;
  if (length === null || !/^\s*\d+\s*$/.test(length)) return null;
  return Number(length);
}

/**
 * `error` as Node's fetch would have thrown it: wrapped in a `TypeError` (`fetch failed`
 * before the response, `terminated` while reading the body) whose cause is the error of the
 * connection; a connection the server closed is undici's `other side closed`
 * (`UND_ERR_SOCKET`) rather than node:http's `socket hang up` or `aborted`. waymark's own
 * errors and abort reasons pass through.
 */
function asFetchError(error: unknown, message: 'fetch failed' | 'terminated'): unknown {
  if (!(error instanceof Error) || error instanceof WaymarkError) return error;
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return error;
  const code = (error as NodeJS.ErrnoException).code;
  const closed =
    code === 'ECONNRESET' && (error.message === 'socket hang up' || error.message === 'aborted');
  const cause = closed
    ? Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })
    : error;
  return new TypeError(message, { cause });
}
