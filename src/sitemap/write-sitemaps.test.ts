import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { isWaymarkError } from '../shared/waymark-error.ts';
import { formatUrlset } from './format-sitemap.ts';
import type { SitemapUrl } from './types.ts';
import { type WriteSitemapsOptions, writeSitemaps } from './write-sitemaps.ts';

const ROOT = await mkdtemp(join(tmpdir(), 'waymark-write-'));
after(() => rm(ROOT, { recursive: true, force: true }));

let dirs = 0;
async function freshDir(): Promise<string> {
  const dir = join(ROOT, `run-${++dirs}`);
  await mkdir(dir);
  return dir;
}

/** Every file under `dir`, hidden ones included, as relative path -> contents. */
async function tree(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files[relative(dir, path)] = (await readFile(path)).toString('latin1');
    }
  }
  return files;
}

function pages(count: number, from = 0): SitemapUrl[] {
  return Array.from({ length: count }, (_, i) => ({ loc: `https://example.com/page/${from + i}` }));
}

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] ?? '');
}

async function* slowly<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) {
    await new Promise((resolve) => setImmediate(resolve));
    yield item;
  }
}

const BASE = 'https://example.com/';

describe('one file or parts and an index', () => {
  test('everything that fits becomes sitemap.xml, the same as formatUrlset', async () => {
    const dir = await freshDir();
    const entries = pages(3);
    const result = await writeSitemaps(entries, { dir, baseUrl: BASE, maxUrls: 3 });
    assert.deepEqual(result, {
      files: [join(dir, 'sitemap.xml')],
      index: null,
      urls: 3,
      url: 'https://example.com/sitemap.xml',
    });
    assert.deepEqual(await tree(dir), { 'sitemap.xml': formatUrlset(entries) });
  });

  // maxUrls 3: a part is closed at exactly 3 URLs, and no empty part follows.
  const SPLITS: [count: number, parts: number[]][] = [
    [1, [1]],
    [3, [3]],
    [4, [3, 1]],
    [6, [3, 3]],
    [7, [3, 3, 1]],
  ];
  for (const [count, sizes] of SPLITS) {
    test(`${count} URLs with maxUrls 3 -> ${sizes.length === 1 ? 'one file' : `${sizes.join(' + ')}`}`, async () => {
      const dir = await freshDir();
      const entries = pages(count);
      const result = await writeSitemaps(slowly(entries), { dir, baseUrl: BASE, maxUrls: 3 });
      assert.equal(result.urls, count);
      assert.equal(result.files.length, sizes.length);
      const written: string[] = [];
      for (const [i, file] of result.files.entries()) {
        const xml = await readFile(file, 'utf8');
        assert.equal(locs(xml).length, sizes[i]);
        written.push(...locs(xml));
      }
      assert.deepEqual(
        written,
        entries.map((entry) => entry.loc),
      );
      if (sizes.length === 1) {
        assert.equal(result.index, null);
        return;
      }
      const names = sizes.map((_, i) => `sitemaps/sitemap-${String(i + 1).padStart(4, '0')}.xml`);
      assert.deepEqual(
        result.files,
        names.map((name) => join(dir, name)),
      );
      assert.equal(result.index, join(dir, 'sitemap_index.xml'));
      assert.equal(result.url, 'https://example.com/sitemap_index.xml');
      const index = await readFile(join(dir, 'sitemap_index.xml'), 'utf8');
      assert.match(index, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex /);
      assert.deepEqual(
        locs(index),
        names.map((name) => `${BASE}${name}`),
      );
      assert.deepEqual(Object.keys(await tree(dir)).sort(), ['sitemap_index.xml', ...names]);
    });
  }

  test('parts are closed before the next URL would pass maxBytes, closing tag counted', async () => {
    const dir = await freshDir();
    const maxBytes = 1024;
    // Lengths vary so parts fill up unevenly; é takes 2 bytes, then 6 once percent-encoded.
    const entries = Array.from({ length: 60 }, (_, i) => ({
      loc: `https://example.com/${'é'.repeat(i % 7)}${'x'.repeat((i * 13) % 50)}/${i}`,
    }));
    const element = (entry: SitemapUrl): number =>
      Buffer.byteLength(formatUrlset([entry]).split('\n')[2] ?? '') + 1;
    const result = await writeSitemaps(entries, { dir, baseUrl: BASE, maxBytes });
    assert.ok(result.files.length > 3, `${result.files.length} parts`);
    let next = 0;
    for (const [i, file] of result.files.entries()) {
      const size = (await stat(file)).size;
      assert.ok(size <= maxBytes, `${file}: ${size} bytes`);
      next += locs(await readFile(file, 'utf8')).length;
      const following = entries[next];
      if (i < result.files.length - 1 && following !== undefined) {
        assert.ok(size + element(following) > maxBytes, `part ${i + 1} closed early`);
      }
    }
    assert.equal(next, entries.length);
  });

  test(`past 50,000 URLs by default, parts hold 50,000`, async () => {
    const dir = await freshDir();
    function* many(): Generator<SitemapUrl> {
      for (let i = 0; i < 50_001; i++) yield { loc: `https://example.com/${i}` };
    }
    const result = await writeSitemaps(many(), { dir, baseUrl: BASE });
    assert.equal(result.files.length, 2);
    assert.equal(locs(await readFile(result.files[0] ?? '', 'utf8')).length, 50_000);
    assert.deepEqual(locs(await readFile(result.files[1] ?? '', 'utf8')), [
      'https://example.com/50000',
    ]);
  });

  const BASES: [string, Partial<WriteSitemapsOptions>, string][] = [
    ['https://example.com/static', {}, 'https://example.com/static/sitemaps/sitemap-0001.xml'],
    [
      'https://example.com/static/',
      { partsDir: '' },
      'https://example.com/static/sitemap-0001.xml',
    ],
    ['https://example.com/', { partsDir: 'a/b' }, 'https://example.com/a/b/sitemap-0001.xml'],
    ['https://example.com/', { gzip: true }, 'https://example.com/sitemaps/sitemap-0001.xml.gz'],
  ];
  for (const [baseUrl, options, first] of BASES) {
    test(`index names parts by URL: ${baseUrl} ${JSON.stringify(options)}`, async () => {
      const dir = await freshDir();
      const result = await writeSitemaps(pages(2), { dir, baseUrl, maxUrls: 1, ...options });
      assert.equal(locs(await readFile(result.index ?? '', 'utf8'))[0], first);
      await stat(join(dir, first.slice(baseUrl.replace(/\/?$/, '/').length)));
    });
  }

  test('indexLastmod is written on every <sitemap>', async () => {
    const dir = await freshDir();
    const result = await writeSitemaps(pages(2), {
      dir,
      baseUrl: BASE,
      maxUrls: 1,
      indexLastmod: '2024-05-01T10:00Z',
    });
    const index = await readFile(result.index ?? '', 'utf8');
    assert.equal(index.match(/<lastmod>2024-05-01T10:00:00Z<\/lastmod>/g)?.length, 2);
  });
});

describe('gzip', () => {
  for (const [name, count] of [
    ['one file', 2],
    ['parts', 7],
  ] as const) {
    test(`${name}: each .xml.gz gunzips to the plain file`, async () => {
      const plainDir = await freshDir();
      const gzipDir = await freshDir();
      const entries = pages(count).map((entry) => ({ ...entry, lastmod: '2024-05-01' }));
      const plain = await writeSitemaps(entries, { dir: plainDir, baseUrl: BASE, maxUrls: 3 });
      const gzipped = await writeSitemaps(entries, {
        dir: gzipDir,
        baseUrl: BASE,
        maxUrls: 3,
        gzip: true,
      });
      assert.equal(gzipped.files.length, plain.files.length);
      for (const [i, file] of gzipped.files.entries()) {
        assert.ok(file.endsWith('.xml.gz'));
        assert.equal(
          gunzipSync(await readFile(file)).toString('utf8'),
          await readFile(plain.files[i] ?? '', 'utf8'),
        );
      }
      if (plain.index !== null) {
        // The index stays plain XML and names the .gz parts.
        const index = await readFile(gzipped.index ?? '', 'utf8');
        assert.equal(
          index,
          (await readFile(plain.index, 'utf8')).replaceAll('.xml</loc>', '.xml.gz</loc>'),
        );
      }
    });
  }
});

describe('atomic files', () => {
  const OLD = '<?xml version="1.0"?><urlset>old</urlset>';

  // Where the entries fail: in the first file, or once several parts are under way.
  for (const [name, before] of [
    ['in the first file', 2],
    ['after several parts', 10],
  ] as const) {
    test(`an iterator that throws ${name} changes no file and leaves no temporary file`, async () => {
      const dir = await freshDir();
      await writeFile(join(dir, 'sitemap.xml'), OLD);
      const boom = new Error('boom');
      async function* failing(): AsyncGenerator<SitemapUrl> {
        yield* slowly(pages(before));
        throw boom;
      }
      await assert.rejects(
        writeSitemaps(failing(), { dir, baseUrl: BASE, maxUrls: 3 }),
        (error) => error === boom,
      );
      assert.deepEqual(await tree(dir), { 'sitemap.xml': OLD });
      assert.deepEqual(await readdir(dir), ['sitemap.xml']);
    });
  }

  test('fileName: one name for the one file and for the index, parts named after it', async () => {
    const dir = await freshDir();
    const options = { dir, baseUrl: BASE, fileName: 'map.xml', partsDir: '', maxUrls: 2 };
    const split = await writeSitemaps(pages(3), options);
    assert.equal(split.index, join(dir, 'map.xml'));
    assert.deepEqual(split.files, [join(dir, 'map-part-0001.xml'), join(dir, 'map-part-0002.xml')]);
    assert.equal(split.url, `${BASE}map.xml`);
    assert.deepEqual((await readdir(dir)).sort(), [
      'map-part-0001.xml',
      'map-part-0002.xml',
      'map.xml',
    ]);
    const one = await writeSitemaps(pages(1), options);
    assert.equal(one.index, null);
    assert.deepEqual(await readdir(dir), ['map.xml']);
    for (const bad of [
      { fileName: 'map' },
      { fileName: 'sub/map.xml' },
      { fileName: '.map.xml' },
      { fileName: 'map.xml', gzip: true },
    ]) {
      await assert.rejects(writeSitemaps(pages(1), { dir, baseUrl: BASE, ...bad }), {
        code: 'invalid-argument',
        message: /fileName/,
      });
    }
  });

  test('no entries: refused, and the old sitemap stays (an empty urlset is invalid)', async () => {
    const dir = await freshDir();
    await writeFile(join(dir, 'sitemap.xml'), OLD);
    await assert.rejects(writeSitemaps(slowly([]), { dir, baseUrl: BASE }), {
      code: 'invalid-argument',
      message: /there are no entries .*no file was changed/,
    });
    assert.deepEqual(await tree(dir), { 'sitemap.xml': OLD });
  });

  test('a symbolic link is written through, and the old mode is kept', async () => {
    const dir = await freshDir();
    const real = join(dir, 'real');
    await mkdir(real);
    await writeFile(join(real, 'sitemap.xml'), OLD, { mode: 0o640 });
    const out = join(dir, 'out');
    await mkdir(out);
    await symlink(join(real, 'sitemap.xml'), join(out, 'sitemap.xml'));
    await writeSitemaps(pages(2), { dir: out, baseUrl: BASE });
    assert.ok((await lstat(join(out, 'sitemap.xml'))).isSymbolicLink(), 'the link stays');
    assert.deepEqual(
      locs(await readFile(join(real, 'sitemap.xml'), 'utf8')),
      locs(formatUrlset(pages(2))),
    );
    assert.equal((await stat(join(real, 'sitemap.xml'))).mode & 0o777, 0o640);
    assert.deepEqual((await readdir(real)).sort(), ['sitemap.xml']);
  });

  test('a FIFO under a final name is refused before anything is renamed', async () => {
    const dir = await freshDir();
    execFileSync('mkfifo', [join(dir, 'sitemap.xml')]);
    await assert.rejects(writeSitemaps(pages(2), { dir, baseUrl: BASE }), {
      code: 'io-failed',
      message: /sitemap\.xml is a FIFO \(named pipe\), not a regular file/,
    });
    assert.ok((await lstat(join(dir, 'sitemap.xml'))).isFIFO());
    assert.deepEqual(await readdir(dir), ['sitemap.xml']);
  });

  test('an earlier split run stays intact when the next run fails', async () => {
    const dir = await freshDir();
    await writeSitemaps(pages(7), { dir, baseUrl: BASE, maxUrls: 3, gzip: true });
    const before = await tree(dir);
    async function* failing(): AsyncGenerator<SitemapUrl> {
      yield* pages(8, 100);
      throw new Error('late');
    }
    await assert.rejects(
      writeSitemaps(failing(), { dir, baseUrl: BASE, maxUrls: 3, gzip: true }),
      /late/,
    );
    assert.deepEqual(await tree(dir), before);
  });

  test('an invalid entry midway changes nothing and closes the iterator', async () => {
    const dir = await freshDir();
    await writeFile(join(dir, 'sitemap.xml'), OLD);
    let closed = false;
    function* entries(): Generator<SitemapUrl> {
      try {
        yield* pages(5);
        yield { loc: 'not a url' };
        yield* pages(5, 5);
      } finally {
        closed = true;
      }
    }
    await assert.rejects(writeSitemaps(entries(), { dir, baseUrl: BASE, maxUrls: 2 }), (error) => {
      assert.ok(isWaymarkError(error));
      assert.equal(error.code, 'invalid-argument');
      assert.match(error.message, /url "not a url": loc "not a url" is not an absolute URL/);
      return true;
    });
    assert.equal(closed, true);
    assert.deepEqual(await tree(dir), { 'sitemap.xml': OLD });
  });

  test('a stray undefined entry is refused, not taken for the end of the entries', async () => {
    const dir = await freshDir();
    const entries = [...pages(2), undefined as unknown as SitemapUrl, ...pages(2, 2)];
    await assert.rejects(writeSitemaps(entries, { dir, baseUrl: BASE }), {
      code: 'invalid-argument',
      message: /url undefined: is not an object/,
    });
    assert.deepEqual(await readdir(dir), []);
  });

  test('a directory the run created is removed again when it fails', async () => {
    const parent = await freshDir();
    const dir = join(parent, 'new', 'nested');
    async function* failing(): AsyncGenerator<SitemapUrl> {
      yield* pages(4);
      throw new Error('boom');
    }
    await assert.rejects(writeSitemaps(failing(), { dir, baseUrl: BASE, maxUrls: 1 }), /boom/);
    assert.deepEqual(await readdir(parent), []);
  });

  test('data reaches the disk while entries are still coming (memory does not hold the file)', async () => {
    const dir = await freshDir();
    let seenOnDisk = 0;
    async function* entries(): AsyncGenerator<SitemapUrl> {
      for (let i = 0; i < 20_000; i++) {
        if (i % 1000 === 0) await new Promise((resolve) => setImmediate(resolve));
        yield { loc: `https://example.com/${i}` };
      }
      const temp = (await readdir(dir)).find(
        (name) => name.startsWith('.sitemap.xml.') && name.endsWith('.tmp'),
      );
      assert.ok(temp !== undefined, 'the file is written under a temporary name');
      seenOnDisk = (await stat(join(dir, temp))).size;
    }
    await writeSitemaps(entries(), { dir, baseUrl: BASE });
    const final = (await stat(join(dir, 'sitemap.xml'))).size;
    assert.ok(
      seenOnDisk > final / 2,
      `${seenOnDisk} of ${final} bytes on disk before the last entry`,
    );
  });
});

describe('files from earlier runs', () => {
  test('a smaller run removes the old index and parts', async () => {
    const dir = await freshDir();
    await writeSitemaps(pages(7), { dir, baseUrl: BASE, maxUrls: 3 });
    await writeSitemaps(pages(2), { dir, baseUrl: BASE, maxUrls: 3 });
    assert.deepEqual(Object.keys(await tree(dir)), ['sitemap.xml']);
    assert.deepEqual(await readdir(dir), ['sitemap.xml']);
  });

  test('a split run removes the old sitemap.xml and parts past the new count', async () => {
    const dir = await freshDir();
    await writeSitemaps(pages(2), { dir, baseUrl: BASE });
    await writeSitemaps(pages(10), { dir, baseUrl: BASE, maxUrls: 3 });
    await writeSitemaps(pages(4), { dir, baseUrl: BASE, maxUrls: 3 });
    assert.deepEqual(Object.keys(await tree(dir)).sort(), [
      'sitemap_index.xml',
      'sitemaps/sitemap-0001.xml',
      'sitemaps/sitemap-0002.xml',
    ]);
  });

  test('switching to gzip removes the plain files, and other files are left alone', async () => {
    const dir = await freshDir();
    await writeSitemaps(pages(2), { dir, baseUrl: BASE });
    await writeFile(join(dir, 'robots.txt'), 'User-agent: *\n');
    await writeSitemaps(pages(2), { dir, baseUrl: BASE, gzip: true });
    assert.deepEqual(Object.keys(await tree(dir)).sort(), ['robots.txt', 'sitemap.xml.gz']);
  });

  test('removeStale: false keeps them', async () => {
    const dir = await freshDir();
    await writeSitemaps(pages(7), { dir, baseUrl: BASE, maxUrls: 3 });
    await writeSitemaps(pages(2), { dir, baseUrl: BASE, removeStale: false });
    assert.equal(Object.keys(await tree(dir)).length, 5);
  });
});

describe('options', () => {
  const REFUSED: [string, Partial<WriteSitemapsOptions>, RegExp][] = [
    [
      'relative baseUrl',
      { baseUrl: '/sitemaps/' },
      /baseUrl "\/sitemaps\/" is not an absolute http\(s\) URL/,
    ],
    ['ftp baseUrl', { baseUrl: 'ftp://example.com/' }, /baseUrl/],
    ['baseUrl with a query', { baseUrl: 'https://example.com/?a=1' }, /has a query or fragment/],
    ['partsDir escaping dir', { partsDir: '../up' }, /partsDir "..\/up" is not a relative folder/],
    ['absolute partsDir', { partsDir: '/etc' }, /partsDir/],
    ['maxUrls 0', { maxUrls: 0 }, /maxUrls 0/],
    ['bad origin', { origin: 'nope' }, /origin "nope"/],
    ['bad indexLastmod', { indexLastmod: 'today' }, /indexLastmod "today"/],
  ];
  for (const [name, options, pattern] of REFUSED) {
    test(`refused before touching the disk: ${name}`, async () => {
      const parent = await freshDir();
      const dir = join(parent, 'out');
      await assert.rejects(writeSitemaps(pages(1), { dir, baseUrl: BASE, ...options }), (error) => {
        assert.ok(isWaymarkError(error));
        assert.equal(error.code, 'invalid-argument');
        assert.match(error.message, pattern);
        return true;
      });
      assert.deepEqual(await readdir(parent), []);
    });
  }

  test('an entry using an undeclared extension is refused; declared, it is written', async () => {
    const dir = await freshDir();
    const entries = [
      { loc: 'https://example.com/', images: [{ loc: 'https://example.com/i.png' }] },
    ];
    await assert.rejects(
      writeSitemaps(entries, { dir, baseUrl: BASE }),
      /add 'image' to the extensions option/,
    );
    await writeSitemaps(entries, { dir, baseUrl: BASE, extensions: ['image'] });
    assert.equal(await readFile(join(dir, 'sitemap.xml'), 'utf8'), formatUrlset(entries));
  });

  test('origin is checked for every loc', async () => {
    const dir = await freshDir();
    await assert.rejects(
      writeSitemaps([{ loc: 'https://example.com/' }, { loc: 'https://evil.example/' }], {
        dir,
        baseUrl: BASE,
        origin: BASE,
      }),
      /"https:\/\/evil.example\/" is not on origin https:\/\/example.com/,
    );
    assert.deepEqual(await readdir(dir), []);
  });

  test('a dir that is a file fails as io-failed', async () => {
    const parent = await freshDir();
    const file = join(parent, 'file');
    await writeFile(file, 'x');
    await assert.rejects(writeSitemaps(pages(1), { dir: file, baseUrl: BASE }), (error) => {
      assert.ok(isWaymarkError(error));
      assert.equal(error.code, 'io-failed');
      assert.match(error.message, /cannot create .*file/);
      return true;
    });
  });
});
