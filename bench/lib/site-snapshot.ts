// The static baseline's files: each measured path fetched once from the live handler and
// saved byte for byte, with the Content-Type (and Content-Encoding) it came with. Raw
// `node:http`, not `fetch`, so no body is decoded on the way.

import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { StaticFile } from './site-static-child.ts';

export interface RawResponse {
  readonly status: number;
  readonly type: string;
  readonly encoding: string | null;
  readonly body: Buffer;
  /** From sending the request to the last byte, ms. */
  readonly ms: number;
}

/** One GET of `url` with the body as sent; rejects on a network error or after `timeoutMs`. */
export function getRaw(url: string, timeoutMs = 60_000): Promise<RawResponse> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent: false, timeout: timeoutMs }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const encoding = incoming.headers['content-encoding'];
        resolve({
          status: incoming.statusCode ?? 0,
          type: incoming.headers['content-type'] ?? '',
          encoding: encoding === undefined ? null : encoding,
          body: Buffer.concat(chunks),
          ms: performance.now() - started,
        });
      });
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Fetches each path from `origin` and saves it under `dir`; throws unless each is a 200. */
export async function snapshot(
  origin: string,
  paths: readonly string[],
  dir: string,
): Promise<StaticFile[]> {
  mkdirSync(dir, { recursive: true });
  const files: StaticFile[] = [];
  for (const [i, path] of paths.entries()) {
    const response = await getRaw(`${origin}${path}`);
    if (response.status !== 200) {
      throw new Error(`the live handler answered ${path} with ${response.status}, not 200`);
    }
    const file = join(dir, `${i}-${path.slice(path.lastIndexOf('/') + 1)}`);
    writeFileSync(file, response.body);
    files.push({ path, file, type: response.type, encoding: response.encoding });
  }
  return files;
}

/** Whether both origins answer `path` with the same status, type and bytes; else why not. */
export async function compareAnswers(
  path: string,
  live: string,
  baseline: string,
): Promise<string | null> {
  const [a, b] = await Promise.all([getRaw(`${live}${path}`), getRaw(`${baseline}${path}`)]);
  if (a.status !== b.status) return `${path}: status ${a.status} live, ${b.status} static`;
  if (a.type !== b.type) return `${path}: Content-Type ${a.type} live, ${b.type} static`;
  if (a.encoding !== b.encoding) return `${path}: Content-Encoding differs`;
  if (!a.body.equals(b.body)) {
    let at = 0;
    while (at < a.body.length && a.body[at] === b.body[at]) at++;
    return `${path}: bodies differ (${a.body.length} and ${b.body.length} bytes, first at byte ${at})`;
  }
  return null;
}
