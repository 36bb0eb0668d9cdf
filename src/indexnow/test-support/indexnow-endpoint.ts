import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer. A bare number is that status with an empty body. */
export type ScriptedAnswer =
  | number
  | {
      readonly status: number;
      /** Sent as `Retry-After` (seconds or an HTTP-date). */
      readonly retryAfter?: string;
      readonly body?: string;
      /** Drop the connection without answering: a network failure for the client. */
      readonly hangUp?: boolean;
    };

/** A request as the endpoint saw it. */
export interface RecordedIndexNowRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body as text. */
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly body: unknown;
  /** The body's `urlList` when it has one (else empty), for counting. */
  readonly urlList: readonly string[];
}

export interface IndexNowEndpoint {
  /** `http://127.0.0.1:<port>/indexnow` */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: RecordedIndexNowRequest[];
  /** Replaces the answers still to come; after the last one, 200 is answered. */
  script(answers: readonly ScriptedAnswer[]): void;
  /** Drops open connections and stops listening. */
  close(): Promise<void>;
}

/**
 * An IndexNow endpoint on 127.0.0.1 (a free port) for tests: records every request (method,
 * path, headers, body, parsed JSON) and answers a scripted sequence of statuses, one per
 * request, on any path and method: 200, 202, 400, 403, 422, 429 with `Retry-After`, 500, or
 * a dropped connection. Once the script runs out it answers 200.
 *
 * @example
 * ```ts
 * const endpoint = await startIndexNowEndpoint([{ status: 429, retryAfter: '2' }, 200]);
 * after(() => endpoint.close());
 * await submitIndexNow({ endpoint: endpoint.url, host, key, urls, sleep: async () => {} });
 * endpoint.requests.length; // 2
 * ```
 */
export async function startIndexNowEndpoint(
  answers: readonly ScriptedAnswer[] = [],
): Promise<IndexNowEndpoint> {
  const requests: RecordedIndexNowRequest[] = [];
  let queue = [...answers];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = parseJson(text);
      requests.push({
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        headers: request.headers,
        text,
        body,
        urlList: urlListOf(body),
      });
      const next = queue.shift() ?? 200;
      const answer = typeof next === 'number' ? { status: next } : next;
      if ('hangUp' in answer && answer.hangUp === true) {
        request.socket.destroy();
        return;
      }
      const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
      if ('retryAfter' in answer && answer.retryAfter !== undefined) {
        headers['retry-after'] = answer.retryAfter;
      }
      response.writeHead(answer.status, headers).end('body' in answer ? (answer.body ?? '') : '');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/indexnow`,
    requests,
    script: (next) => {
      queue = [...next];
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function urlListOf(body: unknown): readonly string[] {
  if (typeof body !== 'object' || body === null) return [];
  const list = (body as { urlList?: unknown }).urlList;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
}
