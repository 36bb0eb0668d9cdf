// The shop's web server, on 127.0.0.1: a static file server over the generated inputs, for
// the peers that only read over HTTP (sitemapper) and for waymark's own HTTP reader. `.gz`
// files go out as `application/gzip` without Content-Encoding, as static hosts serve
// `sitemap.xml.gz`: the reader has to inflate them.

import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, sep } from 'node:path';

export interface FileServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves the files under `root` at `/`, GET only. */
export async function serveDirectory(root: string): Promise<FileServer> {
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const path = join(root, ...pathname.split('/'));
    let size: number;
    try {
      if (!path.startsWith(root + sep) || request.method !== 'GET') throw new Error('refused');
      size = statSync(path).size;
    } catch {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': path.endsWith('.gz') ? 'application/gzip' : 'application/xml',
      'content-length': String(size),
    });
    createReadStream(path).pipe(response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
