// A crawl killed while it writes its sitemap, for the resume test:
//   node write-stall-child.ts <start URL> <state file>
// It crawls to the end, then, when its sitemap is being written, prints `writing` and waits
// forever (the test kills it there).
import { crawl } from '../crawl.ts';

const [start, statePath] = process.argv.slice(2) as [string, string];
await crawl({
  start,
  statePath,
  rate: 0,
  write: async () => {
    process.stdout.write('writing\n');
    await new Promise(() => setInterval(() => {}, 1000));
  },
});
