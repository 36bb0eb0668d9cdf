// A worker that does a little of everything, closes its state and then simply ends: the
// test waits for this process to exit by itself (nothing left holds it open).
//   node open-close-child.ts <connection> <crawl>
import { openPostgresCrawlState } from '../postgres-crawl-state.ts';

const [connection = '', crawl = ''] = process.argv.slice(2);
const state = await openPostgresCrawlState({ connection, crawl, workerTimeoutMs: 200 });
await state.create({ start: 'https://a.test/', options: '{}', gapMs: 0 });
await state.add([
  {
    url: 'https://a.test/',
    origin: 'https://a.test',
    priority: 0,
    depth: 0,
    via: null,
    kind: 'page',
  },
]);
await state.settleRobots('https://a.test', {
  status: 404,
  detail: null,
  url: 'https://a.test/robots.txt',
  body: null,
  gapMs: 0,
});
const { taken } = await state.step({ finished: [], released: [], take: 1 });
// Long enough for heartbeats to have run.
await new Promise((resolve) => setTimeout(resolve, 300));
for await (const _ of state.results());
await state.close();
process.stdout.write(`${taken.length}\n`);
