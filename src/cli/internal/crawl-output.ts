import { basename, dirname } from 'node:path';
import { writeFileAtomically } from '../../shared/files/atomic-file.ts';
import { printable } from '../../shared/printable.ts';
import { isWaymarkError, WaymarkError } from '../../shared/waymark-error.ts';
import type { SitemapUrl } from '../../sitemap/index.ts';
import { MAX_SITEMAP_URLS, UrlsetWriter } from '../../sitemap/index.ts';
import { urlMarkup } from '../../sitemap/internal/write-url.ts';
import type { Fail } from '../../sitemap/internal/write-values.ts';
import { writeSitemaps } from '../../sitemap/node.ts';
import type { CliIo } from '../io.ts';
import { usageError } from './args.ts';

/** Where and how `waymark crawl` and `waymark crawl export` write the listed pages. */
export interface CrawlOutput {
  /** One file (atomically); with neither this nor `outDir`, standard output. */
  readonly out?: string | undefined;
  /** A folder: sitemap.xml, or parts plus sitemap_index.xml past the protocol's limits. */
  readonly outDir?: string | undefined;
  readonly format: 'xml' | 'json' | 'text';
  readonly gzip: boolean;
  readonly extensions: readonly ('xhtml' | 'image')[];
}

/**
 * Writes the pages where `output` says. Returns the file written (the index of a folder),
 * or null for standard output.
 */
export async function writeCrawlOutput(
  listed: AsyncIterable<SitemapUrl>,
  output: CrawlOutput,
  origin: string,
  io: CliIo,
): Promise<string | null> {
  const pages = output.format === 'xml' ? writablePages(listed, output.extensions, io) : listed;
  if (output.outDir !== undefined) {
    const result = await writeSitemaps(pages, {
      dir: output.outDir,
      baseUrl: `${origin}/`,
      extensions: output.extensions,
      ...(output.gzip ? { gzip: true } : {}),
    });
    return result.index ?? result.files[0] ?? null;
  }
  if (
    output.out !== undefined &&
    output.format === 'xml' &&
    SPLITTABLE.test(basename(output.out))
  ) {
    // One sitemap when everything fits; past 50,000 URLs or 50 MiB, the file at --out becomes
    // the index (what robots.txt names stays the entry point) and the parts go beside it.
    const result = await writeSitemaps(pages, {
      dir: dirname(output.out),
      baseUrl: `${origin}/`,
      fileName: basename(output.out),
      partsDir: '',
      extensions: output.extensions,
    });
    if (result.index !== null) {
      io.stderr(
        `the sitemap passes ${result.urls > MAX_SITEMAP_URLS ? '50,000 URLs' : '50 MiB'}: ${output.out} is an index of ${result.files.length} parts beside it (${basename(result.files[0] ?? '')}, ...), named by ${origin}/\n`,
      );
    }
    return output.out;
  }
  if (output.out !== undefined) {
    await writeFileAtomically(output.out, render(pages, output.format, output.extensions));
    return output.out;
  }
  for await (const chunk of render(pages, output.format, output.extensions)) io.stdout(chunk);
  return null;
}

/** An --out name the sitemap writer can split under (`sitemap.xml` -> `sitemap-0001.xml`). */
const SPLITTABLE = /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.xml$/;

/** Entries left out of a sitemap told one by one; past this many, only counted. */
const LEFT_OUT_TOLD = 5;

/**
 * The pages as the sitemap writer takes them. A crawl lists what passed its own checks, but
 * the writer holds every value to the protocol (a URL of at most 2,048 characters once
 * encoded, an hreflang that is a language tag), and an entry it refuses would end the whole
 * write after a crawl of an hour. Such a page is written without its alternates and images
 * when that makes it fit, else left out; each is told on stderr (the first few, then a
 * count), and the rest of the sitemap is written.
 */
async function* writablePages(
  pages: AsyncIterable<SitemapUrl>,
  extensions: readonly ('xhtml' | 'image')[],
  io: CliIo,
): AsyncGenerator<SitemapUrl> {
  const options = {
    includeChangefreq: false,
    includePriority: false,
    extensions: new Set(extensions),
  };
  const refusal = (page: SitemapUrl): string | null => {
    try {
      urlMarkup(page, options, refuse, null);
      return null;
    } catch (error) {
      if (error instanceof Refused) return error.message;
      throw error;
    }
  };
  let told = 0;
  let leftOut = 0;
  const tell = (message: string): void => {
    if (told++ < LEFT_OUT_TOLD) io.stderr(`${printable(message)}\n`);
  };
  for await (const page of pages) {
    const problem = refusal(page);
    if (problem === null) {
      yield page;
      continue;
    }
    const { alternates, images, ...bare } = page;
    const url = page.loc.length <= 100 ? page.loc : `${page.loc.slice(0, 100)}…`;
    if ((alternates !== undefined || images !== undefined) && refusal(bare) === null) {
      tell(`warning: ${url}: written without its alternates and images (${problem})`);
      yield bare;
      continue;
    }
    leftOut++;
    tell(`warning: ${url}: left out of the sitemap (${problem})`);
  }
  if (told > LEFT_OUT_TOLD) {
    io.stderr(`warning: ${told - LEFT_OUT_TOLD} more such pages (${leftOut} left out in all)\n`);
  }
}

class Refused extends Error {}

const refuse: Fail = (message) => {
  throw new Refused(message);
};

/** The listed pages in the chosen format; one XML file holds at most the protocol's limits. */
async function* render(
  pages: AsyncIterable<SitemapUrl>,
  format: CrawlOutput['format'],
  extensions: readonly ('xhtml' | 'image')[],
): AsyncGenerator<string> {
  if (format === 'text') {
    for await (const page of pages) yield `${page.loc}\n`;
    return;
  }
  if (format === 'json') {
    for await (const page of pages) yield `${JSON.stringify(page)}\n`;
    return;
  }
  const writer = new UrlsetWriter({ extensions, pretty: true });
  yield writer.open();
  for await (const page of pages) {
    const result = writer.write(page);
    if (!result.written) {
      throw new WaymarkError(
        'invalid-argument',
        `the sitemap passes ${result.full === 'max-urls' ? '50,000 URLs' : '50 MiB'}: use --out-dir, or an --out name ending in .xml, to write an index and parts`,
      );
    }
    yield result.xml;
  }
  yield writer.close();
}

/**
 * Checks `--out`, `--out-dir` and `--format` together (usage errors naming the options) and
 * returns the format, `xml` when none is given.
 */
export function outputFormat(
  command: string,
  out: string | undefined,
  outDir: string | undefined,
  format: string | undefined = 'xml',
): CrawlOutput['format'] {
  if (out !== undefined && outDir !== undefined)
    throw usageError(command, '--out and --out-dir exclude each other');
  if (format !== 'xml' && format !== 'json' && format !== 'text')
    throw usageError(command, `--format is xml, json or text, not "${format}"`);
  if (outDir !== undefined && format !== 'xml')
    throw usageError(command, '--out-dir writes XML; use --out for json or text');
  return format;
}

/**
 * Runs an output place's check before any work, as a usage error naming the option: a crawl
 * of an hour must not end in "cannot write".
 */
export async function checkOutputPlace(
  command: string,
  option: string,
  path: string | undefined,
  check: (path: string) => Promise<void>,
): Promise<void> {
  if (path === undefined) return;
  try {
    await check(path);
  } catch (error) {
    if (!isWaymarkError(error)) throw error;
    throw usageError(command, `${option}: ${error.message}`);
  }
}
