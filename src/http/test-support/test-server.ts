import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A route that answers in code: stall, stream, redirect, watch the connection close. */
export type RouteHandler = (request: IncomingMessage, response: ServerResponse) => unknown;

/** A route that always answers the same. Defaults: 200, no headers, empty body. */
export interface StaticRoute {
  readonly status?: number;
  readonly headers?: OutgoingHttpHeaders;
  readonly body?: string | Uint8Array;
}

export type Route = RouteHandler | StaticRoute;

/** A request as the server saw it. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** When it arrived (epoch ms), for checking a client's pacing. */
  readonly time: number;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** The absolute URL of `path` on this server. */
  url(path?: string): string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Drops open connections (stalled ones too) and stops listening. */
  close(): Promise<void>;
}

/**
 * Starts a fixture site on 127.0.0.1 on a free port. Routes are keyed by path without the
 * query (`*` catches every other path); an unknown path is a 404, a handler that throws is a
 * 500.
 *
 * @example
 * ```ts
 * const server = await startTestServer({
 *   '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\n' },
 *   '/stall': () => {},
 * });
 * after(() => server.close());
 * ```
 */
export async function startTestServer(
  routes: Readonly<Record<string, Route>>,
): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push({
      method: request.method ?? 'GET',
      path,
      headers: request.headers,
      time: Date.now(),
    });
    // An exact path first; a `*` route, when given, answers every other path.
    const route = routes[new URL(path, 'http://x').pathname] ?? routes['*'];
    if (route === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    } else if (typeof route === 'function') {
      Promise.resolve()
        .then(() => route(request, response))
        .catch((error: unknown) => {
          if (!response.headersSent) response.writeHead(500);
          response.end(String(error));
        });
    } else {
      response.writeHead(route.status ?? 200, route.headers).end(route.body ?? '');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path = '/') => new URL(path, origin).href,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
