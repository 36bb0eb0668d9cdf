import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { AtomicFile, writeFileAtomically } from './atomic-file.ts';

const ROOT = await mkdtemp(join(tmpdir(), 'waymark-atomic-'));
after(() => rm(ROOT, { recursive: true, force: true }));
let runs = 0;
async function freshDir(): Promise<string> {
  const dir = join(ROOT, `run-${++runs}`);
  await mkdir(dir);
  return dir;
}

/** More than a pipe's or a stream's buffer, so a failure shows mid-stream, not at the end. */
function* big(): Generator<string> {
  for (let i = 0; i < 200; i++) yield `${'x'.repeat(1023)}\n`;
}

describe('writeFileAtomically', () => {
  test('writes a new file, and replaces an old one keeping its mode', async () => {
    const dir = await freshDir();
    const path = join(dir, 'out.txt');
    await writeFileAtomically(path, ['a', 'b']);
    assert.equal(await readFile(path, 'utf8'), 'ab');
    // 0666 and 0664 are what a umask of 022 trims on a new file.
    const umask = process.umask(0o022);
    try {
      for (const mode of [0o604, 0o664, 0o666, 0o600]) {
        await chmod(path, mode);
        await writeFileAtomically(path, ['new']);
        assert.equal(await readFile(path, 'utf8'), 'new');
        assert.equal((await stat(path)).mode & 0o7777, mode, mode.toString(8));
      }
    } finally {
      process.umask(umask);
    }
    assert.deepEqual(await readdir(dir), ['out.txt']);
  });

  test('gzip', async () => {
    const dir = await freshDir();
    await writeFileAtomically(join(dir, 'a.gz'), big(), { gzip: true });
    assert.equal(gunzipSync(await readFile(join(dir, 'a.gz'))).toString(), [...big()].join(''));
  });

  test('many small chunks, strings and bytes mixed, come out exactly, plain and gzipped', async () => {
    const dir = await freshDir();
    // Several times the gathering size; UTF-8 sequences split between byte chunks, and
    // strings of multi-byte characters between them.
    const chunks: (string | Uint8Array)[] = [];
    const euro = Buffer.from('€');
    for (let i = 0; i < 30_000; i++) {
      if (i % 3 === 0) chunks.push(`<url>${i}é€😀</url>\n`);
      else if (i % 3 === 1) chunks.push(euro.subarray(0, 2));
      else chunks.push(Buffer.concat([euro.subarray(2), Buffer.from(`${i}`)]));
    }
    const expected = Buffer.concat(
      chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)),
    );
    await writeFileAtomically(join(dir, 'mixed.txt'), chunks);
    assert.deepEqual(await readFile(join(dir, 'mixed.txt')), expected);
    await writeFileAtomically(join(dir, 'mixed.gz'), chunks, { gzip: true });
    assert.deepEqual(gunzipSync(await readFile(join(dir, 'mixed.gz'))), expected);
    const strings = chunks.filter((chunk) => typeof chunk === 'string');
    await writeFileAtomically(join(dir, 'strings.txt'), strings);
    assert.equal(await readFile(join(dir, 'strings.txt'), 'utf8'), strings.join(''));
  });

  test('a producer that reuses its buffer after each chunk is written as it was', async () => {
    const dir = await freshDir();
    const reused = new Uint8Array(10);
    async function* counting(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 20_000; i++) {
        reused.fill(48 + (i % 10));
        yield reused;
      }
    }
    await writeFileAtomically(join(dir, 'reused.txt'), counting());
    const text = await readFile(join(dir, 'reused.txt'), 'latin1');
    const expected = Array.from({ length: 20_000 }, (_, i) => String(i % 10).repeat(10)).join('');
    assert.equal(text, expected);
  });

  test('other views (a Uint16Array, a DataView) are written as their bytes', async () => {
    const dir = await freshDir();
    const wide = new Uint16Array([0x4142, 0x4344]);
    const view = new DataView(new ArrayBuffer(4));
    view.setUint32(0, 0x31323334);
    const chunks = ['x', wide, view] as unknown as Uint8Array[];
    await writeFileAtomically(join(dir, 'views.bin'), chunks);
    const expected = Buffer.concat([
      Buffer.from('x'),
      Buffer.from(wide.buffer, wide.byteOffset, wide.byteLength),
      Buffer.from(view.buffer, view.byteOffset, view.byteLength),
    ]);
    assert.deepEqual(await readFile(join(dir, 'views.bin')), expected);
  });

  test('writes through symbolic links (two of them, one relative) and keeps them', async () => {
    const dir = await freshDir();
    await mkdir(join(dir, 'real'));
    await writeFile(join(dir, 'real', 'sitemap.xml'), 'old', { mode: 0o640 });
    await symlink('real/sitemap.xml', join(dir, 'middle'));
    await symlink(join(dir, 'middle'), join(dir, 'link'));
    await writeFileAtomically(join(dir, 'link'), ['new']);
    assert.equal(await readlink(join(dir, 'link')), join(dir, 'middle'));
    assert.equal(await readlink(join(dir, 'middle')), 'real/sitemap.xml');
    assert.equal(await readFile(join(dir, 'real', 'sitemap.xml'), 'utf8'), 'new');
    assert.equal((await stat(join(dir, 'real', 'sitemap.xml'))).mode & 0o777, 0o640);
    assert.deepEqual(await readdir(join(dir, 'real')), ['sitemap.xml']);
  });

  test('a dangling symbolic link creates its target', async () => {
    const dir = await freshDir();
    await symlink('target.xml', join(dir, 'link.xml'));
    await writeFileAtomically(join(dir, 'link.xml'), ['x']);
    assert.ok((await lstat(join(dir, 'link.xml'))).isSymbolicLink());
    assert.equal(await readFile(join(dir, 'target.xml'), 'utf8'), 'x');
  });

  // What is there instead of a regular file: it is named, refused, and stays as it was.
  const NOT_FILES: [
    name: string,
    make: (path: string) => Promise<() => Promise<void>>,
    kind: RegExp,
  ][] = [
    [
      'a directory',
      async (path) => {
        await mkdir(path);
        return async () => {};
      },
      /is a directory/,
    ],
    [
      'a FIFO',
      async (path) => {
        execFileSync('mkfifo', [path]);
        return async () => {};
      },
      /is a FIFO \(named pipe\)/,
    ],
    [
      'a socket',
      async (path) => {
        const server = createServer();
        await new Promise<void>((resolve) => server.listen(path, resolve));
        return () => new Promise<void>((resolve) => server.close(() => resolve()));
      },
      /is a socket/,
    ],
    [
      'a link to /dev/full',
      async (path) => {
        await symlink('/dev/full', path);
        return async () => {};
      },
      /\/dev\/full \(where .* leads\) is a character device/,
    ],
  ];
  for (const [name, make, kind] of NOT_FILES) {
    test(`${name} is refused and left as it was`, async () => {
      const dir = await freshDir();
      const path = join(dir, 'sitemap.xml');
      const cleanup = await make(path);
      try {
        const before = await lstat(path);
        await assert.rejects(writeFileAtomically(path, big()), (error: Error) => {
          assert.equal((error as { code?: string }).code, 'io-failed');
          assert.match(error.message, kind);
          return true;
        });
        const now = await lstat(path);
        assert.equal(now.ino, before.ino);
        assert.equal(now.mode, before.mode);
        assert.deepEqual(await readdir(dir), ['sitemap.xml']);
      } finally {
        await cleanup();
      }
    });
  }
  test('/dev/full itself stays a device', async () => {
    await assert.rejects(writeFileAtomically('/dev/full', ['x']), /is a character device/);
    assert.ok((await lstat('/dev/full')).isCharacterDevice());
  });

  test('a missing folder is a clear error, even for output larger than any buffer', async () => {
    const dir = await freshDir();
    const path = join(dir, 'missing', 'sitemap.xml');
    await assert.rejects(writeFileAtomically(path, big()), {
      code: 'io-failed',
      message: /the folder .*missing does not exist/,
    });
    assert.deepEqual(await readdir(dir), []);
  });

  test('what the chunks throw is passed on, and nothing is left behind', async () => {
    const dir = await freshDir();
    await writeFile(join(dir, 'a'), 'old');
    const boom = new Error('boom');
    function* failing(): Generator<string> {
      yield* big();
      throw boom;
    }
    await assert.rejects(writeFileAtomically(join(dir, 'a'), failing()), (e) => e === boom);
    assert.deepEqual(await readdir(dir), ['a']);
    assert.equal(await readFile(join(dir, 'a'), 'utf8'), 'old');
  });

  test('the temporary file of a write killed with SIGKILL is removed by the next write', async () => {
    const dir = await freshDir();
    const path = join(dir, 'sitemap.xml');
    await writeFile(path, 'old');
    // A writer that never finishes: it writes one chunk, then waits forever.
    const script = `
      import { AtomicFile } from ${JSON.stringify(new URL('./atomic-file.ts', import.meta.url).href)};
      const file = await AtomicFile.open(${JSON.stringify(path)});
      await file.write((async function* () {
        yield 'partial';
        process.stdout.write('started\\n');
        await new Promise(() => setInterval(() => {}, 1000));
      })());
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const left = (await readdir(dir)).filter((name) => name !== 'sitemap.xml');
    assert.equal(left.length, 1, 'the killed write left its temporary file');
    assert.match(
      left[0] as string,
      new RegExp(`^\\.sitemap\\.xml\\.${child.pid}-[0-9a-f]{12}\\.tmp$`),
    );
    assert.equal(await readFile(path, 'utf8'), 'old', 'the target is untouched');

    // A live writer's temporary file (this process's) is not touched by another write.
    const live = await AtomicFile.open(join(dir, 'other.xml'));
    await live.write(['pending']);
    await writeFileAtomically(path, ['new']);
    const names = (await readdir(dir)).sort();
    assert.equal(names.length, 2, names.join(' '));
    assert.ok(names.includes('sitemap.xml'));
    assert.ok(names.some((name) => name.startsWith('.other.xml.')));
    assert.equal(await readFile(path, 'utf8'), 'new');
    await live.discard();
    assert.deepEqual(await readdir(dir), ['sitemap.xml']);
  });

  test('a leftover from before pids were recorded is removed too; other names are not', async () => {
    const dir = await freshDir();
    const path = join(dir, 'sitemap.xml');
    await writeFile(join(dir, '.sitemap.xml.0123456789ab.tmp'), 'leftover');
    await writeFile(join(dir, '.sitemap.xml.keep'), 'not ours');
    await writeFile(join(dir, '.other.xml.0123456789ab.tmp'), 'another file');
    await writeFileAtomically(path, ['x']);
    assert.deepEqual((await readdir(dir)).sort(), [
      '.other.xml.0123456789ab.tmp',
      '.sitemap.xml.keep',
      'sitemap.xml',
    ]);
    assert.ok(existsSync(path));
  });
});
