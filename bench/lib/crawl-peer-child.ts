// sitemap-generator (v8, simplecrawler inside) crawling the bench site, in a process of its
// own. The task comes as JSON in argv; the sitemap goes to the task's file; one JSON line on
// stdout tells what its events counted.

import { fileURLToPath } from 'node:url';
import SitemapGenerator from 'sitemap-generator';

export interface PeerTask {
  readonly start: string;
  /** Where it writes sitemap.xml. */
  readonly out: string;
  readonly concurrency: number;
}

export interface PeerResult {
  readonly added: number;
  readonly ignored: number;
  readonly errors: number;
}

export const PEER_RESULT_MARK = 'crawl-peer-result ';

/**
 * Its options for the bench: simplecrawler's `interval` (the pause between starting two
 * requests, 250 ms by default) at 0, which Node's timers make 1 ms; `maxConcurrency` as
 * waymark's; no depth limit (`maxDepth: 0`, its default); `lastMod` on, as waymark writes
 * lastmod from Last-Modified by default. Everything else as shipped (it strips query
 * strings and obeys robots.txt by default).
 */
export function peerOptions(task: PeerTask) {
  return {
    filepath: task.out,
    maxDepth: 0,
    maxConcurrency: task.concurrency,
    interval: 0,
    lastMod: true,
  };
}

async function peerMain(task: PeerTask): Promise<void> {
  const generator = SitemapGenerator(task.start, peerOptions(task));
  let added = 0;
  let ignored = 0;
  let errors = 0;
  generator.on('add', () => added++);
  generator.on('ignore', () => ignored++);
  generator.on('error', () => errors++);
  await new Promise<void>((resolve) => {
    generator.on('done', () => resolve());
    generator.start();
  });
  const result: PeerResult = { added, ignored, errors };
  process.stdout.write(`${PEER_RESULT_MARK}${JSON.stringify(result)}\n`);
  // Keep-alive sockets to the site would hold the process open for seconds.
  process.exit(0);
}

/** Given instead of a task: exit once sitemap-generator is loaded (for its memory at start). */
export const LOAD_ONLY = '--load-only';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = process.argv[2] ?? '{}';
  if (arg !== LOAD_ONLY) await peerMain(JSON.parse(arg) as PeerTask);
}
