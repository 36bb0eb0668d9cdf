// The flags a command sets must take effect when set at run time, as bin.ts sets them: a
// child builds 300,000 small objects that all survive (as the site's index and the crawl's
// bookkeeping do) with and without `serve`'s flags, and reports its young generation.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { v8FlagsFor } from './v8-tuning.ts';

test('the long-running commands tune V8 and the short ones keep its defaults', () => {
  const table: [string | undefined, readonly string[]][] = [
    ['crawl', ['--semi-space-growth-factor=1', '--heap-growing-percent=25', '--no-turbofan']],
    ['serve', ['--semi-space-growth-factor=1']],
    ['sitemap', []],
    ['robots', []],
    ['toString', []],
    ['__proto__', []],
    [undefined, []],
  ];
  for (const [command, flags] of table) assert.deepEqual(v8FlagsFor(command), flags, command);
});

test("serve's young generation stays small while what it builds survives", () => {
  const youngGeneration = (command: string): number => {
    const script = `
      import { getHeapSpaceStatistics } from 'node:v8';
      import { tuneV8For } from ${JSON.stringify(new URL('./v8-tuning.ts', import.meta.url).href)};
      tuneV8For(${JSON.stringify(command)});
      const kept = [];
      for (let i = 0; i < 300_000; i++) kept.push({ path: 'docs/' + i + '/page.md', n: i });
      const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      process.stdout.write(String(space.space_size) + ' ' + kept.length);
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    const [size = '', kept = ''] = run.stdout.split(' ');
    assert.equal(kept, '300000');
    return Number(size);
  };
  const tuned = youngGeneration('serve');
  const untuned = youngGeneration('sitemap');
  // V8's defaults grow it to 32-64 MiB here; kept at its start it is 1-2 MiB (a little more
  // if a collection lands just before the flag is read).
  assert.ok(tuned <= 16 * 2 ** 20, `tuned: ${tuned} bytes`);
  assert.ok(untuned >= 2 * tuned, `untuned ${untuned} bytes, tuned ${tuned}`);
});
