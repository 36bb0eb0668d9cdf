import type { AddressInfo } from 'node:net';
import { nodeHttp } from '../shared/node/http-modules.ts';
import { WaymarkError } from '../shared/waymark-error.ts';
import {
  createSiteHandler,
  type SiteHandler,
  type SiteHandlerOptions,
} from './create-site-handler.ts';
import { toNodeListener } from './to-node-listener.ts';

export interface SiteServerOptions extends Omit<SiteHandlerOptions, 'serveDocuments'> {
  /** Default 8080; 0 picks a free port. */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
}

/** A running `waymark serve`. */
export interface SiteServer {
  /** `http://127.0.0.1:8080` */
  readonly origin: string;
  readonly handler: SiteHandler;
  /** Stops listening, drops open connections and stops watching. */
  close(): Promise<void>;
}

/**
 * A standalone server for a content root: robots.txt and the sitemaps, and the documents
 * themselves (see `serveDocuments` of {@link createSiteHandler}), on Node's `http`.
 *
 * @example
 * ```ts
 * const server = await startSiteServer({ root: 'examples/content', port: 0 });
 * console.log(`${server.origin}/sitemap.xml`);
 * await server.close();
 * ```
 */
export async function startSiteServer(options: SiteServerOptions): Promise<SiteServer> {
  const { port = 8080, host = '127.0.0.1', ...rest } = options;
  const handler = createSiteHandler({ ...rest, serveDocuments: true });
  // Fail before listening when the root or its config cannot be read.
  await handler.diagnostics();
  const server = nodeHttp().createServer(toNodeListener(handler));
  // Node never gives a CONNECT to the request listener: it emits 'connect', and with no
  // listener closes the connection without a word. Answer it as every other method.
  server.on('connect', (_request, socket) => {
    socket.end(
      'HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await handler.close();
    throw new WaymarkError(
      'io-failed',
      `cannot listen on ${host}:${port}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    origin: `http://${shownHost}:${address.port}`,
    handler,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handler.close();
    },
  };
}
