// The baseline of the site benchmark, run as a child process: plain Node `http` serving
// files that hold the very bytes the live handler answered, the way a small Node static file
// server (send, serve-static) does it: per request a `stat`, Content-Type, Content-Length,
// Last-Modified and a weak ETag from size and mtime, then `fs.createReadStream` piped out.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { serveInChild } from './site-server.ts';

const SCRIPT = fileURLToPath(import.meta.url);

export interface StaticFile {
  /** The request path it answers, such as `/sitemap.xml`. */
  readonly path: string;
  /** Where its bytes are. */
  readonly file: string;
  /** The live handler's Content-Type (and Content-Encoding, if any), sent as they were. */
  readonly type: string;
  readonly encoding: string | null;
}

export interface StaticTask {
  readonly files: readonly StaticFile[];
}

function staticListener(task: StaticTask) {
  const byPath = new Map(task.files.map((f) => [f.path, f]));
  return (request: IncomingMessage, response: ServerResponse): void => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const found = byPath.get(path);
    if (found === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    void send(request, response, found);
  };
}

async function send(
  request: IncomingMessage,
  response: ServerResponse,
  found: StaticFile,
): Promise<void> {
  try {
    const info = await stat(found.file);
    const headers: Record<string, string> = {
      'content-type': found.type,
      'content-length': String(info.size),
      'last-modified': info.mtime.toUTCString(),
      etag: `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
    };
    if (found.encoding !== null) headers['content-encoding'] = found.encoding;
    response.writeHead(200, headers);
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    await pipeline(createReadStream(found.file), response);
  } catch {
    if (!response.headersSent) response.writeHead(500).end();
    else response.destroy();
  }
}

if (process.argv[1] === SCRIPT) {
  await serveInChild(staticListener(JSON.parse(process.argv[2] ?? '{}') as StaticTask));
}
