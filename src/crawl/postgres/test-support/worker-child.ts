// A worker in a process of its own, for the tests of what happens when a worker dies or
// freezes:  node worker-child.ts <connection> <crawl> <workerTimeoutMs> <take> <robots origin>
// It takes `take` items, claims the sitemaps and the robots.txt of `robots origin`, then
// prints `{"taken":[ids]}` and waits. On the line `finish` on stdin it records its items as
// finished (`{"lost":n}` is printed); on the line `again` it adds the links those results
// found (`{"added":n}`), closes and exits. The test kills or stops it meanwhile.
import { createInterface } from 'node:readline';
import type { FinishedItem } from '../../crawl-state.ts';
import { LISTED } from '../../test-support/conformance/helpers.ts';
import { openPostgresCrawlState } from '../postgres-crawl-state.ts';

const [connection = '', crawl = '', timeout = '', take = '', robotsOrigin = ''] =
  process.argv.slice(2);
const state = await openPostgresCrawlState({ connection, crawl, workerTimeoutMs: Number(timeout) });
const { taken } = await state.step({ finished: [], released: [], take: Number(take) });
const sitemaps = await state.claimSitemaps();
const robots = await state.claimRobots(robotsOrigin);
process.stdout.write(
  `${JSON.stringify({ taken: taken.map((item) => item.id), sitemaps, robots })}\n`,
);

let found: FinishedItem['discovered'] = [];
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'again') {
    // What the lost results found, found again: it was never added, so it must be sent.
    process.stdout.write(`${JSON.stringify({ added: await state.add(found) })}\n`);
    await state.close();
    process.exit(0);
  }
  if (line !== 'finish') continue;
  const finished = taken.map(
    (item): FinishedItem => ({
      item,
      result: LISTED,
      discovered: [
        {
          url: `${item.url}/late-link`,
          origin: item.origin,
          priority: 0,
          depth: 1,
          via: item.url,
          kind: 'page',
        },
      ],
      depthCut: 0,
      requested: true,
    }),
  );
  const { lost } = await state.step({ finished, released: [], take: 0 });
  found = finished.flatMap((done) => done.discovered);
  process.stdout.write(`${JSON.stringify({ lost })}\n`);
}
