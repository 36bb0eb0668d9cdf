import { printable } from '../../shared/printable.ts';
import { WaymarkError } from '../../shared/waymark-error.ts';
import type { SitemapExtension, SitemapUrl } from '../../sitemap/index.ts';
import { writeSitemaps } from '../../sitemap/node.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { displayName, openInput } from '../internal/input.ts';
import { type CliCommand, type CliIo, EXIT_OK, EXIT_PROBLEMS } from '../io.ts';

const NAME = 'waymark sitemap write';

const HELP = `Write sitemap.xml (or parts plus sitemap_index.xml past 50,000 URLs or 50 MiB)
from URLs, one a line, or JSON lines of entries.

Usage: ${NAME} --base <url> --out <dir> [options] [< urls.txt]

Options:
      --base <url>        public URL of the output folder (https://example.com/)
      --out <dir>         folder to write into (created if missing)
      --input <file>      read entries from a file instead of standard input
      --gzip              write .xml.gz files (the index stays plain XML)
      --extensions <list> extensions the entries use: image,video,news,xhtml
      --max-urls <n>      URLs per file (default and most 50000)
      --changefreq        write changefreq (left out by default: engines ignore it)
      --priority          write priority (same)
  -h, --help              show this help

A line that starts with { is a JSON entry: {"loc", "lastmod", "images": [{"loc"}], ...}.
Blank lines and lines starting with # are skipped. Files are written atomically: on any
error nothing under a final name changes.
Exit status: 0 when written, 1 when the input holds no URL (nothing is written: a sitemap
lists at least one), 2 on a usage error or invalid input, 3 when the input cannot be read
or a file cannot be written.
`;

const EXTENSIONS: readonly SitemapExtension[] = ['image', 'video', 'news', 'xhtml'];

export const sitemapWrite: CliCommand = {
  summary: 'write sitemap files from URLs or JSON lines',
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      base: { type: 'string' },
      out: { type: 'string' },
      input: { type: 'string' },
      gzip: { type: 'boolean' },
      extensions: { type: 'string' },
      'max-urls': { type: 'string' },
      changefreq: { type: 'boolean' },
      priority: { type: 'boolean' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    if (positionals.length > 0) throw usageError(NAME, `unexpected argument "${positionals[0]}"`);
    if (values.base === undefined) throw usageError(NAME, 'missing --base <url>');
    if (values.out === undefined) throw usageError(NAME, 'missing --out <dir>');
    const extensions = (values.extensions ?? '').split(',').filter((e) => e.length > 0);
    for (const extension of extensions) {
      if (!EXTENSIONS.includes(extension as SitemapExtension)) {
        throw usageError(NAME, `unknown extension "${extension}" (use ${EXTENSIONS.join(', ')})`);
      }
    }
    const maxUrls = values['max-urls'] === undefined ? undefined : Number(values['max-urls']);
    if (maxUrls !== undefined && !(Number.isInteger(maxUrls) && maxUrls > 0)) {
      throw usageError(
        NAME,
        `--max-urls must be a positive whole number, not "${values['max-urls']}"`,
      );
    }
    const source = values.input ?? '-';
    const entries = readEntries(await openInput(source, io), displayName(source));
    // An empty <urlset> is invalid (the schema wants one <url>) and would replace a good
    // sitemap with nothing: with no entries, nothing is created or changed.
    const first = await entries.next();
    if (first.done) {
      io.stderr(
        `${NAME}: ${printable(displayName(source))} holds no URL; nothing written (a sitemap lists at least one)\n`,
      );
      return EXIT_PROBLEMS;
    }
    const all = (async function* () {
      yield first.value;
      yield* entries;
    })();
    const result = await writeSitemaps(all, {
      dir: values.out,
      baseUrl: values.base,
      extensions: extensions as SitemapExtension[],
      ...(values.gzip ? { gzip: true } : {}),
      ...(maxUrls === undefined ? {} : { maxUrls }),
      ...(values.changefreq ? { includeChangefreq: true } : {}),
      ...(values.priority ? { includePriority: true } : {}),
    });
    for (const file of [...result.files, ...(result.index === null ? [] : [result.index])]) {
      io.stdout(`wrote ${printable(file)}\n`);
    }
    io.stdout(`${result.urls} URLs; announce ${result.url}\n`);
    return EXIT_OK;
  },
};

/** Entries from lines of text: a URL, or a JSON object. Streams; a bad line stops the write. */
async function* readEntries(
  chunks: AsyncIterable<Uint8Array>,
  name: string,
): AsyncGenerator<SitemapUrl> {
  const decoder = new TextDecoder();
  let carry = '';
  let line = 0;
  const entry = (text: string): SitemapUrl | null => {
    line++;
    const trimmed = text.trim();
    if (trimmed.length === 0 || trimmed.startsWith('#')) return null;
    if (!trimmed.startsWith('{')) return { loc: trimmed };
    try {
      const value = JSON.parse(trimmed) as unknown;
      if (
        typeof value === 'object' &&
        value !== null &&
        typeof (value as { loc?: unknown }).loc === 'string'
      ) {
        return value as SitemapUrl;
      }
    } catch {
      // reported below
    }
    throw new WaymarkError(
      'invalid-argument',
      `${name}:${line}: not a URL or a JSON entry with a "loc"`,
    );
  };
  // Each chunk is searched for line breaks once, from where the last one ended: joining the
  // unfinished line to every chunk and splitting again took quadratic time on long lines.
  const finish = (text: string): void => {
    if (carry.length + text.length > MAX_LINE_CHARS) {
      throw new WaymarkError(
        'invalid-argument',
        `${name}:${line + 1}: the line is over ${MAX_LINE_CHARS} characters; an entry is far shorter`,
      );
    }
    carry += text;
  };
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      finish(text.slice(start, end));
      const value = entry(carry);
      carry = '';
      start = end + 1;
      if (value !== null) yield value;
    }
    finish(text.slice(start));
  }
  finish(decoder.decode());
  const last = entry(carry);
  if (last !== null) yield last;
}

/**
 * The longest input line: an entry with every extension at its protocol limits (1,000
 * images, long video descriptions) fits many times over; `/dev/zero` does not.
 */
const MAX_LINE_CHARS = 16 * 1024 * 1024;
