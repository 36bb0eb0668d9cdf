// readInput on real files and streams: whole up to its cap, a clear io-failed past it
// without reading further, and the file closed whichever way the read ends.
import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { isWaymarkError } from '../../shared/waymark-error.ts';
import type { CliIo } from '../io.ts';
import { readInput, urlLines } from './input.ts';

const dir = mkdtempSync(join(tmpdir(), 'waymark-cli-input-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A CliIo whose files are real, read in 16-byte chunks; `-` is `stdin`. Counts the closes. */
function filesIo(stdin: Uint8Array[] = []): {
  io: CliIo;
  opened: { closed: number; read: number };
} {
  const opened = { closed: 0, read: 0 };
  const io: CliIo = {
    stdout: () => {},
    stderr: () => {},
    openFile: (path) => {
      const source: AsyncIterable<Uint8Array> =
        path === '-'
          ? (async function* () {
              yield* stdin;
            })()
          : createReadStream(path, { highWaterMark: 16 });
      return {
        [Symbol.asyncIterator]: () => {
          const inner = source[Symbol.asyncIterator]();
          return {
            next: async () => {
              const step = await inner.next();
              if (!step.done) opened.read += step.value.length;
              return step;
            },
            return: async () => {
              opened.closed++;
              return (await inner.return?.()) ?? { done: true, value: undefined };
            },
          };
        },
      };
    },
    env: {},
    stderrIsTTY: false,
    version: '0.0.0-test',
  };
  return { io, opened };
}

const bytesOf = (text: string) => new TextEncoder().encode(text);

test('a file up to the cap is read whole, as a plain Uint8Array', async () => {
  const path = join(dir, 'fits.txt');
  const text = 'User-agent: *\nDisallow: /private/\n'.repeat(3);
  writeFileSync(path, text);
  for (const most of [text.length, text.length + 1, 1024]) {
    const got = await readInput(path, filesIo().io, most);
    assert.equal(Object.getPrototypeOf(got), Uint8Array.prototype);
    assert.equal(new TextDecoder().decode(got), text);
  }
});

test('one byte over the cap: io-failed, read no further than the chunk that crossed it, closed', async () => {
  const path = join(dir, 'over.txt');
  writeFileSync(path, 'x'.repeat(10_000));
  const { io, opened } = filesIo();
  await assert.rejects(readInput(path, io, 100), (error: unknown) => {
    assert.ok(isWaymarkError(error) && error.code === 'io-failed', String(error));
    assert.equal(
      error.message,
      `cannot read ${path}: over 100 bytes, the most read from a file here`,
    );
    return true;
  });
  assert.ok(opened.read <= 112, `read ${opened.read} bytes`);
  assert.equal(opened.closed, 1);
});

test('standard input: read whole under the cap, refused over it and named <stdin>', async () => {
  const chunks = [bytesOf('https://a.example/\n'), bytesOf('https://b.example/\n')];
  const got = await readInput('-', filesIo(chunks).io, 1_000);
  assert.equal(new TextDecoder().decode(got), 'https://a.example/\nhttps://b.example/\n');
  await assert.rejects(
    readInput('-', filesIo(chunks).io, 20),
    /cannot read <stdin>: over 20 bytes/,
  );
});

test('a missing file or a directory: cannotRead in words', async () => {
  await assert.rejects(readInput(join(dir, 'missing'), filesIo().io), /: no such file$/);
  await assert.rejects(readInput(dir, filesIo().io), /: a directory, not a file$/);
});

test('a read that fails after the first chunk: io-failed with the cause', async () => {
  const failing: CliIo = {
    ...filesIo().io,
    openFile: () =>
      (async function* () {
        yield bytesOf('User-agent: *\n');
        throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
      })(),
  };
  await assert.rejects(readInput('robots.txt', failing), (error: unknown) => {
    assert.ok(isWaymarkError(error) && error.code === 'io-failed');
    assert.equal(error.message, 'cannot read robots.txt: EIO: i/o error, read');
    return true;
  });
});

test('urlLines: one URL a line (LF, CRLF, CR), trimmed; blanks and # comments skipped', () => {
  const text =
    '# nightly\r\nhttps://a.example/\r\n\n  https://b.example/  \rhttps://c.example/\n# end';
  assert.deepEqual(urlLines(bytesOf(text), 'list.txt'), [
    'https://a.example/',
    'https://b.example/',
    'https://c.example/',
  ]);
  assert.deepEqual(urlLines(bytesOf(''), 'list.txt'), []);
  assert.deepEqual(urlLines(bytesOf('https://a.example/'), 'list.txt'), ['https://a.example/']);
});

test('urlLines: more than the most is refused, comments and blanks not counted', () => {
  const three = '# head\nhttps://a.example/1\n\nhttps://a.example/2\nhttps://a.example/3\n# tail\n';
  assert.equal(urlLines(bytesOf(three), 'list.txt', 3).length, 3);
  assert.throws(
    () => urlLines(bytesOf(`${three}https://a.example/4\n`), 'list.txt', 3),
    (error: unknown) => {
      assert.ok(isWaymarkError(error) && error.code === 'invalid-argument');
      assert.equal(
        error.message,
        'list.txt lists more than 3 URLs, the most one run reads; split the list',
      );
      return true;
    },
  );
});
