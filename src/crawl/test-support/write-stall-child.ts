// A crawl killed while it writes its sitemap, for the resume test:
//   node write-stall-child.ts <start URL> <state file>
// It crawls to the end, then, when its sitemap is being written, prints `writing` and waits
// forever (the test kills it there). It crawls with the default options, as the resume that
// follows does (a resume must give the options the crawl was made with), on a clock that
// its own sleeps move forward, so the default rate's gaps cost no time.
import { crawl } from '../crawl.ts';

const [start, statePath] = process.argv.slice(2) as [string, string];
let slept = 0;
await crawl({
  start,
  statePath,
  now: () => Date.now() + slept,
  sleep: async (ms) => {
    slept += ms;
  },
  write: async () => {
    process.stdout.write('writing\n');
    await new Promise(() => setInterval(() => {}, 1000));
  },
});
