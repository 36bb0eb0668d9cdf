// The reference of the site benchmark, run as a child process: plain Node `http` holding
// the exact bytes of each path in memory, read once at start from the files the live
// handler's answers were saved to, and answered with the headers that matter (Content-Type,
// Content-Length, Last-Modified, ETag, Content-Encoding if any) by one `end(bytes)`. No
// server can send the same body for less work: it is the ceiling the live handler is judged
// against.

import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { serveInChild } from './site-server.ts';
import type { StaticTask } from './site-static-child.ts';

const SCRIPT = fileURLToPath(import.meta.url);

interface Held {
  readonly bytes: Buffer;
  readonly headers: Readonly<Record<string, string>>;
}

function memoryListener(task: StaticTask) {
  const byPath = new Map<string, Held>();
  for (const f of task.files) {
    const bytes = readFileSync(f.file);
    const mtime = statSync(f.file).mtime;
    const headers: Record<string, string> = {
      'content-type': f.type,
      'content-length': String(bytes.length),
      'last-modified': mtime.toUTCString(),
      etag: `W/"${bytes.length.toString(16)}-${Math.floor(mtime.getTime()).toString(16)}"`,
    };
    if (f.encoding !== null) headers['content-encoding'] = f.encoding;
    byPath.set(f.path, { bytes, headers });
  }
  return (request: IncomingMessage, response: ServerResponse): void => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const found = byPath.get(path);
    if (found === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    response.writeHead(200, found.headers);
    if (request.method === 'HEAD') response.end();
    else response.end(found.bytes);
  };
}

if (process.argv[1] === SCRIPT) {
  await serveInChild(memoryListener(JSON.parse(process.argv[2] ?? '{}') as StaticTask));
}
