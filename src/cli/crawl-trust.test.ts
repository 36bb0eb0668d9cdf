// What `waymark crawl` owes a site owner running it from cron: an outage, a bad output place
// or a finished state never costs them their sitemap, never hangs, and is always named.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { CrawlSummary } from '../crawl/index.ts';
import { startTreeSite } from '../crawl/test-support/tree-site.ts';
import { type Route, startTestServer, type TestServer } from '../http/test-support/test-server.ts';
import { runCliForTest } from './test-support/run-cli.ts';

const ROOT = mkdtempSync(join(tmpdir(), 'waymark-crawl-trust-'));
after(() => rmSync(ROOT, { recursive: true, force: true }));
let dirs = 0;
function freshDir(): string {
  const dir = join(ROOT, `run-${++dirs}`);
  mkdirSync(dir);
  return dir;
}

const GOOD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset>the good old sitemap</urlset>\n';

/** A file's bytes and change time: both must be as they were. */
function fingerprint(path: string): string {
  return `${readFileSync(path, 'latin1')}@${statSync(path).mtimeMs}`;
}

/** A port nothing listens on (one that was just free). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function robotsAnswering(status: number): Promise<TestServer> {
  return startTestServer({
    '/robots.txt': { status, body: 'busy' },
    '/': { headers: { 'content-type': 'text/html' }, body: '<a href="/a">a</a>' },
  });
}

describe('an unreachable site writes nothing, names the cause and exits 3', () => {
  const CASES: {
    name: string;
    start: () => Promise<{ url: string; close: () => Promise<void> }>;
    extra?: string[];
    message: RegExp;
  }[] = [
    {
      name: 'connection refused',
      start: async () => ({
        url: `http://127.0.0.1:${await closedPort()}/`,
        close: async () => {},
      }),
      message:
        /^site unreachable: ECONNREFUSED \(http:\/\/127\.0\.0\.1:\d+\/robots\.txt\); RFC 9309 says crawl nothing$/m,
    },
    ...[503, 500, 429].map((status) => ({
      name: `robots.txt ${status}`,
      start: async () => {
        const server = await robotsAnswering(status);
        return { url: server.url('/'), close: () => server.close() };
      },
      message: new RegExp(`^robots\\.txt answered ${status}: RFC 9309 says crawl nothing \\(`, 'm'),
    })),
    {
      name: 'robots.txt connection closed',
      start: async () => {
        const server = await startTestServer({ '*': (req) => req.socket.destroy() });
        return { url: server.url('/'), close: () => server.close() };
      },
      message: /^site unreachable: connection closed by the server \(/m,
    },
    {
      name: 'start page refused, robots.txt errors allowed',
      start: async () => ({
        url: `http://127.0.0.1:${await closedPort()}/`,
        close: async () => {},
      }),
      extra: ['--robots-error', 'allow'],
      message: /^site unreachable: ECONNREFUSED \(http:\/\/127\.0\.0\.1:\d+\/\)$/m,
    },
  ];
  for (const { name, start, extra = [], message } of CASES) {
    for (const output of ['--out', '--out-dir'] as const) {
      test(`${name}, ${output}`, async () => {
        const dir = freshDir();
        const target = output === '--out' ? join(dir, 'sitemap.xml') : dir;
        writeFileSync(join(dir, 'sitemap.xml'), GOOD);
        const before = fingerprint(join(dir, 'sitemap.xml'));
        const site = await start();
        try {
          const result = await runCliForTest([
            'crawl',
            site.url,
            output,
            target,
            '--rate',
            '0',
            '--timeout',
            '2s',
            '--quiet',
            ...extra,
          ]);
          assert.equal(result.code, 3, result.stderr);
          assert.match(result.stderr, message);
          assert.match(
            result.stderr,
            new RegExp(`^nothing written: ${target} is left as it was$`, 'm'),
          );
          assert.doesNotMatch(result.stderr, /robots-disallowed/);
          assert.equal(fingerprint(join(dir, 'sitemap.xml')), before);
          assert.deepEqual(readdirSync(dir), ['sitemap.xml'], 'no temporary file is left behind');
        } finally {
          await site.close();
        }
      });
    }
  }

  test('the JSON log carries the cause', async () => {
    const server = await robotsAnswering(503);
    try {
      const result = await runCliForTest(['crawl', server.url('/'), '--json-log', '--rate', '0']);
      assert.equal(result.code, 3);
      const done = doneRecord(result.stderr);
      assert.equal(done.summary.unreachable?.cause, 'robots-txt');
      assert.equal(done.summary.unreachable?.status, 503);
      assert.deepEqual(done.summary.skipped, { 'robots-unreachable': 1 });
      assert.equal(result.stdout, '', 'nothing on standard output either');
    } finally {
      await server.close();
    }
  });
});

/** The `done` record of a JSON log. */
function doneRecord(log: string): {
  summary: CrawlSummary;
  written: string | null;
  kept: string[];
} {
  const done = log
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { type: string })
    .find((record) => record.type === 'done');
  assert.ok(done !== undefined, `no done record in ${log}`);
  return done as unknown as { summary: CrawlSummary; written: string | null; kept: string[] };
}

test('a start URL that redirects off the site says where it went', async () => {
  let port = 0;
  const server = await startTestServer({
    '/robots.txt': { body: 'User-agent: *\nAllow: /\n' },
    '/': (_, res) => res.writeHead(301, { location: `http://localhost:${port}/` }).end(),
  });
  port = Number(new URL(server.url('/')).port);
  try {
    const result = await runCliForTest(['crawl', server.url('/'), '--rate', '0', '--quiet']);
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(
        `the start URL redirects to http://localhost:${port}/, on another origin, which is not crawled: start from that URL instead\n`,
      ),
    );
    assert.ok(
      server.requests.every((r) => r.headers.host !== `localhost:${port}`),
      'the other origin was never asked',
    );
  } finally {
    await server.close();
  }
});

test('a crawl that lists nothing exits 1 and leaves the old sitemap', async () => {
  const server = await startTestServer({
    '/robots.txt': { body: 'User-agent: *\nAllow: /\n' },
    '/': {
      headers: { 'content-type': 'text/html' },
      body: '<meta name="robots" content="noindex"><a href="/a">a</a>',
    },
    '/a': { status: 404 },
  });
  const dir = freshDir();
  writeFileSync(join(dir, 'sitemap.xml'), GOOD);
  const before = fingerprint(join(dir, 'sitemap.xml'));
  try {
    const result = await runCliForTest([
      'crawl',
      server.url('/'),
      '--out',
      join(dir, 'sitemap.xml'),
      '--rate',
      '0',
    ]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /^0 listed in the sitemap$/m);
    assert.match(result.stderr, /^nothing written: .*sitemap\.xml is left as it was$/m);
    assert.equal(fingerprint(join(dir, 'sitemap.xml')), before);
  } finally {
    await server.close();
  }
});

test('a crawl of a site half down keeps the sitemap already there; a first one is written', async () => {
  const links = Array.from({ length: 6 }, (_, i) => `<a href="/p${i}">p${i}</a>`).join('');
  const routes: Record<string, Route> = {
    '/robots.txt': { body: 'User-agent: *\nAllow: /\n' },
    '/': { headers: { 'content-type': 'text/html' }, body: links },
  };
  // Three pages reset the connection, three answer 500: six failed, one listed.
  for (let i = 0; i < 3; i++) routes[`/p${i}`] = (req) => req.socket.destroy();
  for (let i = 3; i < 6; i++) routes[`/p${i}`] = { status: 500 };
  const server = await startTestServer(routes);
  const dir = freshDir();
  const out = join(dir, 'sitemap.xml');
  const args = ['crawl', server.url('/'), '--out', out, '--rate', '0', '--timeout', '2s'];
  try {
    writeFileSync(out, GOOD);
    const before = fingerprint(out);
    const kept = await runCliForTest(args);
    assert.equal(kept.code, 1, kept.stderr);
    assert.match(
      kept.stderr,
      /^6 pages failed \(network errors, timeouts, 5xx\) and 1 were listed: .* the old one stays/m,
    );
    assert.match(kept.stderr, /^nothing written: .*sitemap\.xml is left as it was$/m);
    assert.equal(fingerprint(out), before);

    rmSync(out);
    const first = await runCliForTest(args);
    assert.equal(first.code, 0, first.stderr);
    assert.match(readFileSync(out, 'utf8'), new RegExp(`<loc>${server.url('/')}</loc>`));
  } finally {
    await server.close();
  }
});

test('a page the sitemap writer refuses costs that page, not the whole sitemap', async () => {
  const long = `/search?q=${'x'.repeat(3000)}`;
  const page = (body: string) => ({ headers: { 'content-type': 'text/html' }, body });
  const server = await startTestServer({
    '/robots.txt': { body: 'User-agent: *\nAllow: /\n' },
    '/': page(`<a href="${long}">long</a><a href="/alt">alt</a><a href="/img">img</a>`),
    [long.slice(0, long.indexOf('?'))]: page('<p>results</p>'),
    '/alt': page(
      '<link rel="alternate" hreflang="not a tag!" href="/alt-de"><link rel="alternate" hreflang="de" href="/alt-de">',
    ),
    '/img': page(`<img src="/${'i'.repeat(3000)}.png">`),
  });
  const dir = freshDir();
  try {
    for (const output of [
      ['--out', join(dir, 'sitemap.xml')],
      ['--out-dir', dir],
    ]) {
      const result = await runCliForTest([
        'crawl',
        server.url('/'),
        ...output,
        '--hreflang',
        '--images',
        '--rate',
        '0',
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stderr,
        /warning: .*\/search\?q=x+…: left out of the sitemap \(loc is 3\d{3} characters once encoded, more than 2048\)/,
      );
      assert.match(
        result.stderr,
        /warning: .*\/alt: written without its alternates and images \(.*not a language tag/,
      );
      assert.match(
        result.stderr,
        /warning: .*\/img: written without its alternates and images \(.*more than 2048/,
      );
      const xml = readFileSync(join(dir, 'sitemap.xml'), 'utf8');
      assert.deepEqual(
        [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]),
        ['/', '/alt', '/img'].map((path) => server.url(path)),
      );
      assert.doesNotMatch(xml, /xhtml:link|image:image/);
    }
  } finally {
    await server.close();
  }
});

describe('output places are checked before the first request', () => {
  const unwritable = findUnwritableFolder();
  const CASES: { name: string; args: (dir: string) => string[]; message: RegExp }[] = [
    {
      name: '--out is a directory',
      args: (dir) => ['--out', dir],
      message: /--out: cannot write .*: .* is a directory, not a regular file/,
    },
    {
      name: "--out's folder is missing",
      args: (dir) => ['--out', join(dir, 'missing', 'sitemap.xml')],
      message: /--out: cannot write .*: the folder .*missing does not exist/,
    },
    {
      name: '--out leads to /dev/full',
      args: (dir) => {
        symlinkSync('/dev/full', join(dir, 'full.xml'));
        return ['--out', join(dir, 'full.xml')];
      },
      message: /--out: cannot write .*: \/dev\/full \(where .* leads\) is a character device/,
    },
    {
      name: '--out-dir is a file',
      args: (dir) => {
        writeFileSync(join(dir, 'file'), 'x');
        return ['--out-dir', join(dir, 'file')];
      },
      message: /--out-dir: cannot write .*file: it is not a folder/,
    },
    {
      name: "--out-dir's parent is a file",
      args: (dir) => {
        writeFileSync(join(dir, 'file'), 'x');
        return ['--out-dir', join(dir, 'file', 'sub')];
      },
      message: /--out-dir: cannot write .*: .*file is not a folder/,
    },
    {
      name: '--out-dir under a symbolic link that leads to itself',
      args: (dir) => {
        symlinkSync('loop', join(dir, 'loop'));
        return ['--out-dir', join(dir, 'loop', 'sub')];
      },
      message: /--out-dir: cannot write .*: cannot look at .*loop\/sub \(too many symbolic links/,
    },
    {
      name: "--out's folder under a symbolic link that leads to itself",
      args: (dir) => {
        symlinkSync('loop', join(dir, 'loop'));
        return ['--out', join(dir, 'loop', 'sitemap.xml')];
      },
      message:
        /--out: cannot write .*: cannot look at .*loop\/sitemap\.xml \(too many symbolic links/,
    },
    {
      name: "--feeds' folder is missing",
      args: (dir) => ['--out', join(dir, 'sitemap.xml'), '--feeds', join(dir, 'no', 'feeds.txt')],
      message: /--feeds: cannot write .*: the folder .*no does not exist/,
    },
    {
      name: "--state's folder is missing",
      args: (dir) => ['--state', join(dir, 'no', 'state.db')],
      message: /--state: cannot write .*: the folder .*no does not exist/,
    },
    ...(unwritable === null
      ? []
      : [
          {
            name: `--out in a folder that cannot be written (${unwritable})`,
            args: () => ['--out', join(unwritable, 'waymark-sitemap.xml')],
            // In words: /sys answers EACCES or EROFS, a chmod 555 folder EACCES.
            message:
              /--out: cannot write .*: cannot create files in .* \((?:permission denied|a read-only file system)\) /,
          },
        ]),
  ];
  for (const { name, args, message } of CASES) {
    test(name, async () => {
      const dir = freshDir();
      const server = await startTreeSite({ pages: 3 });
      try {
        const result = await runCliForTest(['crawl', server.url('/'), ...args(dir), '--rate', '0']);
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, message);
        assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
        assert.deepEqual(server.requests, [], 'no request was made');
      } finally {
        await server.close();
      }
    });
  }
  if (unwritable === null) {
    test('an unwritable folder', (t) => t.skip('no folder here refuses files to this user'));
  }
});

/**
 * A folder this process cannot create files in. Permissions do not stop root, so a
 * read-only mount is looked for too.
 */
function findUnwritableFolder(): string | null {
  if (process.getuid?.() !== 0) {
    const dir = mkdtempSync(join(ROOT, 'readonly-'));
    execFileSync('chmod', ['555', dir]);
    return dir;
  }
  for (const candidate of ['/sys', '/proc/sys']) {
    const probe = join(candidate, `waymark-probe-${process.pid}`);
    try {
      writeFileSync(probe, '');
      rmSync(probe, { force: true });
    } catch {
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}

describe('--resume', () => {
  test('of a finished crawl finishes at once, without a request, and writes the sitemap', {
    timeout: 60_000,
  }, async () => {
    const server = await startTreeSite({ pages: 20 });
    const dir = freshDir();
    const state = join(dir, 'state.db');
    try {
      const args = ['crawl', server.url('/'), '--state', state, '--rate', '0', '--json-log'];
      const first = await runCliForTest([...args, '--out', join(dir, 'first.xml')]);
      assert.equal(first.code, 0, first.stderr);
      const requests = server.requests.length;
      const again = await runCliForTest([...args, '--resume', '--out', join(dir, 'again.xml')]);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(server.requests.length, requests, 'nothing was requested again');
      assert.equal(
        readFileSync(join(dir, 'again.xml'), 'utf8'),
        readFileSync(join(dir, 'first.xml'), 'utf8'),
      );
      const { durationMs: _a, rate: _b, ...firstSummary } = doneRecord(first.stderr).summary;
      const { durationMs: _c, rate: _d, ...againSummary } = doneRecord(again.stderr).summary;
      assert.deepEqual(againSummary, firstSummary);
    } finally {
      await server.close();
    }
  });

  test('of a crawl killed while it wrote its sitemap writes it from the state', {
    timeout: 60_000,
  }, async () => {
    const server = await startTreeSite({ pages: 20 });
    const dir = freshDir();
    const state = join(dir, 'state.db');
    try {
      // A crawl whose writing never ends, killed once it has begun.
      const child = spawn(process.execPath, [WRITE_STALL_CHILD, server.url('/'), state], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      const closed = new Promise((resolve) => child.once('close', resolve));
      child.kill('SIGKILL');
      await closed;
      const requests = server.requests.length;
      const out = join(dir, 'sitemap.xml');
      const result = await runCliForTest([
        'crawl',
        server.url('/'),
        '--state',
        state,
        '--resume',
        '--out',
        out,
        '--quiet',
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(server.requests.length, requests, 'nothing was requested again');
      assert.equal((readFileSync(out, 'utf8').match(/<loc>/g) ?? []).length, 17);
    } finally {
      await server.close();
    }
  });

  test('of a state kept for another site is refused', async () => {
    const server = await startTreeSite({ pages: 3 });
    const dir = freshDir();
    const state = join(dir, 'state.db');
    try {
      assert.equal(
        (await runCliForTest(['crawl', server.url('/'), '--state', state, '-q'])).code,
        0,
      );
      const other = await runCliForTest([
        'crawl',
        server.url('/p/1'),
        '--state',
        state,
        '--resume',
        '-q',
      ]);
      assert.equal(other.code, 2, other.stderr);
      assert.match(other.stderr, /the crawl state holds a crawl of .*\/, not of .*\/p\/1/);
    } finally {
      await server.close();
    }
  });
});

const WRITE_STALL_CHILD = fileURLToPath(
  new URL('../crawl/test-support/write-stall-child.ts', import.meta.url),
);

describe('limits that cut a crawl short say so, even with --quiet', () => {
  const LIMITS: {
    flag: string;
    value: string;
    line: RegExp;
    check: (truncated: CrawlSummary['truncated']) => void;
  }[] = [
    {
      flag: '--max-pages',
      value: '5',
      line: /^stopped at --max-pages 5: \d+ URLs found were not fetched \(raise --max-pages to crawl them\)$/m,
      check: (truncated) => {
        assert.equal(truncated?.maxPages?.limit, 5);
        assert.ok((truncated?.maxPages?.queued ?? 0) > 0);
        assert.equal(truncated?.maxDepth, null);
      },
    },
    {
      flag: '--max-depth',
      value: '1',
      line: /^4 links lead deeper than --max-depth 1 and were not followed \(raise --max-depth to follow them\)$/m,
      // / links /p/1 and /p/2 (depth 1), whose links /p/3 to /p/6 would be depth 2.
      check: (truncated) =>
        assert.deepEqual(truncated, { maxPages: null, maxDepth: { limit: 1, links: 4 } }),
    },
  ];
  for (const { flag, value, line, check } of LIMITS) {
    test(flag, async () => {
      const server = await startTreeSite({ pages: 30 });
      try {
        const args = ['crawl', server.url('/'), flag, value, '--rate', '0'];
        const quiet = await runCliForTest([...args, '-q']);
        assert.equal(quiet.code, 0, quiet.stderr);
        assert.match(quiet.stderr, line);
        check(doneRecord((await runCliForTest([...args, '--json-log'])).stderr).summary.truncated);
      } finally {
        await server.close();
      }
    });
  }

  test('a crawl that reached everything is not truncated', async () => {
    const server = await startTreeSite({ pages: 10 });
    try {
      const json = await runCliForTest(['crawl', server.url('/'), '--rate', '0', '--json-log']);
      assert.equal(doneRecord(json.stderr).summary.truncated, null);
      const quiet = await runCliForTest(['crawl', server.url('/'), '--rate', '0', '-q']);
      assert.equal(quiet.stderr, '');
    } finally {
      await server.close();
    }
  });
});

test('--include that leaves out the start page: it is fetched for its links, not listed, and said', async () => {
  const server = await startTreeSite({ pages: 10 });
  try {
    const result = await runCliForTest([
      'crawl',
      server.url('/'),
      '--include',
      '/p/**',
      '--format',
      'text',
      '--rate',
      '0',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /warning: the start URL .* does not pass --include\/--exclude: it is fetched for its links but not listed/,
    );
    const urls = result.stdout.trim().split('\n');
    assert.ok(!urls.includes(server.url('/')));
    // /p/1 .. /p/9 but the noindex /p/3.
    assert.equal(urls.length, 8, result.stdout);
  } finally {
    await server.close();
  }
});

describe('Ctrl-C', () => {
  const BIN = fileURLToPath(new URL('./bin.ts', import.meta.url));

  /** Runs the CLI in a child whose temporary folder is `tmp`; SIGINT once `pages` were served. */
  async function interrupted(args: string[], tmp: string, pages: number) {
    let served = 0;
    let child: ReturnType<typeof spawn> | null = null;
    const server = await startTreeSite({
      pages: 200,
      latencyMs: 20,
      onPage: () => {
        if (++served === pages) child?.kill('SIGINT');
      },
    });
    try {
      child = spawn(process.execPath, [BIN, 'crawl', server.url('/'), ...args], {
        env: { ...process.env, TMPDIR: tmp },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => child?.once('close', resolve));
      return { code, stderr, server };
    } catch (error) {
      await server.close();
      throw error;
    }
  }

  test('with --state: stops cleanly, says how to resume, and the resume finishes the crawl', {
    timeout: 120_000,
  }, async () => {
    const dir = freshDir();
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    const state = join(dir, 'state.db');
    const out = join(dir, 'sitemap.xml');
    writeFileSync(out, GOOD);
    const args = [
      '--state',
      state,
      '--out',
      out,
      '--rate',
      '0',
      '--concurrency',
      '2',
      '--max-depth',
      '20',
    ];
    const run = await interrupted(args, tmp, 10);
    try {
      assert.equal(run.code, 130, run.stderr);
      const hint = /to go on:\n {2}(.*)\n/.exec(run.stderr);
      assert.ok(hint !== null, run.stderr);
      assert.equal(
        hint[1],
        ['waymark', 'crawl', run.server.url('/'), ...args, '--resume'].join(' '),
      );
      assert.equal(readFileSync(out, 'utf8'), GOOD, 'an interrupted crawl writes nothing');
      assert.deepEqual(readdirSync(tmp), [], 'nothing is left in the temporary folder');
      assert.deepEqual(readdirSync(dir).sort(), ['sitemap.xml', 'state.db', 'tmp']);

      const resumed = await runCliForTest([
        'crawl',
        run.server.url('/'),
        ...args,
        '--resume',
        '-q',
      ]);
      assert.equal(resumed.code, 0, resumed.stderr);
      // Every page but the noindex ones (n % 7 = 3).
      const noindex = Array.from({ length: 200 }, (_, n) => n).filter((n) => n % 7 === 3);
      assert.equal((readFileSync(out, 'utf8').match(/<loc>/g) ?? []).length, 200 - noindex.length);
    } finally {
      await run.server.close();
    }
  });

  test('without --state: says the crawl is lost, and leaves no temporary state', {
    timeout: 120_000,
  }, async () => {
    const dir = freshDir();
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    const run = await interrupted(['--out', join(dir, 'sitemap.xml'), '--rate', '0'], tmp, 5);
    try {
      assert.equal(run.code, 130, run.stderr);
      assert.match(
        run.stderr,
        /^interrupted: the crawl is lost \(give --state <file> to make a crawl resumable\)$/m,
      );
      assert.deepEqual(readdirSync(tmp), []);
      assert.deepEqual(readdirSync(dir), ['tmp']);
    } finally {
      await run.server.close();
    }
  });
});
