// The `waymark` executable as a real process, for what only a process shows: the Node.js
// version check (on a real older Node), a closed output pipe, which warnings reach stderr,
// and an endless input that must end in an error rather than exhaust the process's memory.
import assert from 'node:assert/strict';
import { execFileSync, type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  hideSqliteExperimentalWarning,
  isSqliteExperimentalWarning,
  unsupportedNodeMessage,
  type WarningEmitter,
} from './internal/node-runtime.ts';

const BINS = {
  source: fileURLToPath(new URL('./bin.ts', import.meta.url)),
  // Built by `npm test` before the tests run; WAYMARK_TEST_BUILT_BIN points at another build.
  built:
    process.env['WAYMARK_TEST_BUILT_BIN'] ??
    fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url)),
};

const dir = mkdtempSync(join(tmpdir(), 'waymark-cli-process-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the Node.js version check', () => {
  const cases: [version: string, supported: boolean][] = [
    ['v16.20.2', false],
    ['v18.19.0', false],
    ['v20.20.2', false],
    ['v22.12.0', false],
    ['v22.13.0', true],
    ['v22.22.1', true],
    ['v23.3.0', false],
    ['v23.4.0', true],
    ['v24.0.0', true],
    ['v25.1.0', true],
    ['v100.0.0', true],
  ];
  for (const [version, supported] of cases) {
    test(`${version}: ${supported ? 'runs' : 'refused'}`, () => {
      const message = unsupportedNodeMessage(version, '/opt/node/bin/node');
      if (supported) assert.equal(message, null);
      else
        assert.equal(
          message,
          `waymark needs Node.js 22.13 or later (23.4 or later on Node 23); this is Node.js ${version} (/opt/node/bin/node)`,
        );
    });
  }

  test('a Node.js older than 22.13 gets the message, exit 3, even for --help', {
    timeout: 60_000,
  }, (t) => {
    const old = olderNode();
    if (old === null) {
      t.skip('no Node.js older than 22.13 on PATH (set WAYMARK_OLD_NODE to one to run this check)');
      return;
    }
    for (const args of [['--help'], ['--version'], ['robots', 'lint', '-'], ['crawl', '--help']]) {
      const refused: SpawnSyncReturns<string> = spawnSync(old.path, [BINS.built, ...args], {
        encoding: 'utf8',
        input: '',
        timeout: 30_000,
      });
      assert.equal(refused.stdout, '', args.join(' '));
      assert.equal(
        refused.stderr,
        `waymark needs Node.js 22.13 or later (23.4 or later on Node 23); this is Node.js ${old.version} (${old.execPath})\n`,
        args.join(' '),
      );
      // EXIT_FAILURE: the job cannot be done here; the command line itself is fine.
      assert.equal(refused.status, 3, args.join(' '));
    }
  });
});

describe('the SQLite ExperimentalWarning (Node 22 and 23)', () => {
  const SQLITE = 'SQLite is an experimental feature and might change at any time';
  const warnings: [label: string, args: unknown[], shown: boolean][] = [
    // How Node itself emits it: emitWarning(message, 'ExperimentalWarning', code, ctor).
    ['as Node emits it', [SQLITE, 'ExperimentalWarning', undefined, undefined], false],
    ['with options', [SQLITE, { type: 'ExperimentalWarning' }], false],
    ['as an Error', [Object.assign(new Error(SQLITE), { name: 'ExperimentalWarning' })], false],
    [
      'another experimental feature',
      ['VM Modules is an experimental feature', 'ExperimentalWarning'],
      true,
    ],
    ['the same text as a plain warning', [SQLITE], true],
    ['the same text as a deprecation', [SQLITE, 'DeprecationWarning', 'DEP0001'], true],
    ['a deprecation', ['Buffer() is deprecated', 'DeprecationWarning', 'DEP0005'], true],
  ];
  for (const [label, args, shown] of warnings) {
    test(`${label}: ${shown ? 'passed on unchanged' : 'dropped'}`, () => {
      assert.equal(isSqliteExperimentalWarning(args[0], args[1]), !shown);
      const seen: unknown[][] = [];
      const target: WarningEmitter = {
        emitWarning: ((...given: unknown[]) => {
          seen.push(given);
        }) as WarningEmitter['emitWarning'],
      };
      const restore = hideSqliteExperimentalWarning(target);
      (target.emitWarning as (...a: unknown[]) => void)(...args);
      assert.deepEqual(seen, shown ? [args] : []);
      restore();
      (target.emitWarning as (...a: unknown[]) => void)(...args);
      assert.equal(seen.length, shown ? 2 : 1, 'restored');
    });
  }

  test('on a real process, only that warning is kept off stderr', () => {
    const module = fileURLToPath(new URL('./internal/node-runtime.ts', import.meta.url));
    const script = `
      import { hideSqliteExperimentalWarning } from ${JSON.stringify(module)};
      hideSqliteExperimentalWarning(process);
      process.emitWarning(${JSON.stringify(SQLITE)}, 'ExperimentalWarning');
      process.emitWarning('Widgets is an experimental feature and might change at any time', 'ExperimentalWarning');
      process.emitWarning('something else', 'DeprecationWarning', 'DEP0999');
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /SQLite/);
    assert.match(run.stderr, /ExperimentalWarning: Widgets is an experimental feature/);
    assert.match(run.stderr, /\[DEP0999\] DeprecationWarning: something else/);
  });
});

describe('output closed early (waymark ... | head -1)', () => {
  // Far more than a pipe holds (64 KiB), so the CLI is still writing when the reader goes.
  const sitemap = join(dir, 'big.txt');
  writeFileSync(
    sitemap,
    Array.from({ length: 100_000 }, (_, i) => `https://example.com/page/${i}\n`).join(''),
  );
  for (const [name, bin] of Object.entries(BINS)) {
    test(`${name}: ends quietly with the SIGPIPE status, 141`, { timeout: 60_000 }, async () => {
      const child = spawn(process.execPath, [bin, 'sitemap', 'parse', sitemap], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const closed = new Promise<[number | null, string | null]>((resolve) =>
        child.once('close', (code, signal) => resolve([code, signal])),
      );
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
      });
      // The first chunk, or null when the process ended without writing one.
      const first = await Promise.race([
        new Promise<string>((resolve) =>
          child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))),
        ),
        closed.then(() => null),
      ]);
      assert.match(first ?? '', /^https:\/\/example\.com\/page\/0\n/, stderr);
      child.stdout.destroy();
      const [code, signal] = await closed;
      assert.equal(stderr, '');
      assert.deepEqual([code, signal], [141, null]);
    });
  }
});

describe('an endless input read whole (robots lint /dev/zero)', {
  skip: existsSync('/dev/zero') ? undefined : 'needs /dev/zero',
}, () => {
  test('stops at 256 MiB with one line and exit 3, not at the memory limit', {
    timeout: 60_000,
  }, () => {
    const run = spawnSync(process.execPath, [BINS.built, 'robots', 'lint', '/dev/zero'], {
      encoding: 'utf8',
      timeout: 50_000,
    });
    assert.equal(run.stdout, '');
    assert.equal(
      run.stderr,
      'waymark: cannot read /dev/zero: over 256 MiB, the most read from a file here\n',
    );
    assert.equal(run.status, 3);
  });
});

/** A Node.js older than 22.13: WAYMARK_OLD_NODE, or the first such `node` on PATH. */
function olderNode(): { path: string; version: string; execPath: string } | null {
  const candidates = [
    ...(process.env['WAYMARK_OLD_NODE'] ? [process.env['WAYMARK_OLD_NODE']] : []),
    ...(process.env['PATH'] ?? '').split(delimiter).map((folder) => join(folder, 'node')),
  ];
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    try {
      const [version = '', execPath = ''] = execFileSync(
        path,
        ['-p', 'process.version + "\\n" + process.execPath'],
        { encoding: 'utf8' },
      )
        .trim()
        .split('\n');
      if (unsupportedNodeMessage(version, execPath) !== null) return { path, version, execPath };
    } catch {
      // not runnable: try the next
    }
  }
  return null;
}
