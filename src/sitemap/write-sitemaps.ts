import { mkdir } from 'node:fs/promises';
import { AtomicFile } from '../shared/files/atomic-file.ts';
import { WaymarkError } from '../shared/waymark-error.ts';
import {
  MAX_SITEMAP_URLS,
  SitemapIndexWriter,
  type UrlsetOptions,
  UrlsetWriter,
} from './format-sitemap.ts';
import { io, removeEmptyDirectories } from './internal/write-file-io.ts';
import { type FilePlan, planFiles, removeStale } from './internal/write-file-plan.ts';
import type { LastmodInput, SitemapUrlInput } from './types.ts';

export interface WriteSitemapsOptions extends UrlsetOptions {
  /** The directory to write into; created when missing. */
  readonly dir: string;
  /** The public URL of `dir`, such as `https://example.com/`; the index names parts by it. */
  readonly baseUrl: string;
  /** Write `.xml.gz` files (the index itself stays plain `sitemap_index.xml`). */
  readonly gzip?: boolean;
  /**
   * The folder under `dir` for part files (default `sitemaps`; `''` puts them in `dir`).
   * Note that sitemaps.org lets a sitemap list only URLs at or below its own folder, and
   * Google says the same of sitemaps it was not sent through robots.txt or Search Console.
   */
  readonly partsDir?: string;
  /**
   * `<lastmod>` of every `<sitemap>` in the index (W3C Datetime, or a `Date` written to the
   * second in UTC), such as the build time.
   */
  readonly indexLastmod?: LastmodInput;
  /**
   * Remove files an earlier run left under this writer's names and no longer in use
   * (`sitemap.xml`, `sitemap_index.xml`, `sitemaps/sitemap-NNNN.xml[.gz]`), so an old
   * index or part cannot keep pointing crawlers at removed pages. Default true.
   */
  readonly removeStale?: boolean;
  /**
   * One name that stays the entry point (`sitemap.xml`, as robots.txt names it): the one
   * file when everything fits, else the index, whose parts are then `<stem>-part-0001.xml` in
   * `partsDir`. Plain XML only (not with `gzip`). Default: `sitemap.xml`, or
   * `sitemap_index.xml` and `sitemap-0001.xml`.
   */
  readonly fileName?: string;
}

export interface WriteSitemapsResult {
  /** Paths of the URL-set files written: `sitemap.xml` (or `fileName`), or each part in order. */
  readonly files: readonly string[];
  /** Path of the index (`sitemap_index.xml`, or `fileName`), or null when everything fitted in one file. */
  readonly index: string | null;
  /** Entries written. */
  readonly urls: number;
  /** The public URL to announce (robots.txt `Sitemap:`): the index, or the one sitemap. */
  readonly url: string;
}

// Big enough to keep syscalls few, small enough that buffered chunks stay cheap.
const CHUNK_CHARS = 16 * 1024;

/**
 * The implementation of `writeSitemaps` in `waymark/sitemap/node` (node.ts), which loads
 * this module on its first call and documents the contract.
 */
export async function writeSitemaps(
  entries: Iterable<SitemapUrlInput> | AsyncIterable<SitemapUrlInput>,
  options: WriteSitemapsOptions,
): Promise<WriteSitemapsResult> {
  const plan = planFiles(options);
  new UrlsetWriter(options); // checks the document options, also before touching the disk
  const source = new EntrySource(entries);
  const createdDir = await io(`create ${plan.dir}`, () => mkdir(plan.dir, { recursive: true }));
  let createdPartsDir: string | undefined;
  // One atomic file per URL set, in order; each renamed into place only at the end.
  const parts: AtomicFile[] = [];
  let index: AtomicFile | null = null;
  try {
    do {
      if (parts.length === MAX_SITEMAP_URLS) {
        throw new WaymarkError(
          'invalid-argument',
          `cannot write sitemaps: more than ${MAX_SITEMAP_URLS} parts, the most one index may list`,
        );
      }
      if (parts.length === 1) {
        // A second part: the first file is a part too, not sitemap.xml.
        createdPartsDir = await io(`create ${plan.partsPath}`, () =>
          mkdir(plan.partsPath, { recursive: true }),
        );
        await (parts[0] as AtomicFile).retarget(plan.partFile(1));
      }
      const file = await AtomicFile.open(
        parts.length === 0 ? plan.single : plan.partFile(parts.length + 1),
      );
      parts.push(file);
      await file.write(source.part(new UrlsetWriter(options)), { gzip: plan.gzip });
      if (source.urls === 0) {
        // The schema wants at least one <url>, and an empty file must not replace a good one.
        throw new WaymarkError(
          'invalid-argument',
          'cannot write sitemaps: there are no entries (a sitemap lists at least one URL); no file was changed',
        );
      }
    } while (!source.done);

    const split = parts.length > 1;
    if (split) {
      index = await AtomicFile.open(plan.index);
      const writer = new SitemapIndexWriter(options.pretty === true ? { pretty: true } : {});
      await index.write(indexChunks(writer, plan, parts.length));
    }
    // Parts first, the index last: a crawler reading the new index finds every part.
    for (const file of parts) await file.commit();
    await index?.commit();
    const files = split ? parts.map((_, i) => plan.partFile(i + 1)) : [plan.single];
    if (options.removeStale !== false) {
      await removeStale(plan, new Set(split ? [...files, plan.index] : files));
    }
    return {
      files,
      index: split ? plan.index : null,
      urls: source.urls,
      url: split ? plan.indexUrl : plan.singleUrl,
    };
  } catch (error) {
    await source.close();
    await Promise.all([...parts, ...(index === null ? [] : [index])].map((f) => f.discard()));
    if (createdPartsDir !== undefined) {
      await removeEmptyDirectories(plan.partsPath, createdPartsDir);
    }
    if (createdDir !== undefined) await removeEmptyDirectories(plan.dir, createdDir);
    throw error;
  }
}

/**
 * The caller's entries, pulled one at a time into part after part. An entry that does
 * not fit a part is carried over to start the next one.
 */
class EntrySource {
  readonly #iterator: Iterator<SitemapUrlInput> | AsyncIterator<SitemapUrlInput>;
  /** The same iterator when it is synchronous: read without an `await` per entry. */
  readonly #syncIterator: Iterator<SitemapUrlInput> | null;
  #carry: { readonly entry: SitemapUrlInput } | undefined;
  /** The iterator threw (so it is finished, and its error is the caller's). */
  failed = false;
  /** The iterator is exhausted. */
  done = false;
  urls = 0;

  constructor(entries: Iterable<SitemapUrlInput> | AsyncIterable<SitemapUrlInput>) {
    if (Symbol.asyncIterator in entries) {
      this.#iterator = entries[Symbol.asyncIterator]();
      this.#syncIterator = null;
    } else {
      this.#syncIterator = (entries as Iterable<SitemapUrlInput>)[Symbol.iterator]();
      this.#iterator = this.#syncIterator;
    }
  }

  /** One part's markup, in chunks, until the part is full or the entries end. */
  async *part(writer: UrlsetWriter): AsyncGenerator<string> {
    let buffer = writer.open();
    for (;;) {
      const next =
        this.#carry ?? (this.#syncIterator === null ? await this.#next() : this.#nextSync());
      this.#carry = undefined;
      if (next === null) break;
      const result = writer.write(next.entry);
      if (!result.written) {
        this.#carry = next;
        break;
      }
      this.urls++;
      buffer += result.xml;
      if (buffer.length >= CHUNK_CHARS) {
        yield buffer;
        buffer = '';
      }
    }
    yield buffer + writer.close();
  }

  /** The next entry (boxed, so a stray `undefined` entry is refused, not taken as the end). */
  async #next(): Promise<{ readonly entry: SitemapUrlInput } | null> {
    let next: IteratorResult<SitemapUrlInput>;
    try {
      next = await this.#iterator.next();
    } catch (error) {
      this.failed = true;
      throw error;
    }
    return this.#box(next);
  }

  #nextSync(): { readonly entry: SitemapUrlInput } | null {
    let next: IteratorResult<SitemapUrlInput>;
    try {
      next = (this.#syncIterator as Iterator<SitemapUrlInput>).next();
    } catch (error) {
      this.failed = true;
      throw error;
    }
    return this.#box(next);
  }

  #box(next: IteratorResult<SitemapUrlInput>): { readonly entry: SitemapUrlInput } | null {
    if (next.done === true) {
      this.done = true;
      return null;
    }
    return { entry: next.value };
  }

  /** Lets the caller's generator clean up (its `finally`) when writing stops early. */
  async close(): Promise<void> {
    if (this.failed || this.done) return;
    this.done = true;
    await Promise.resolve(this.#iterator.return?.()).catch(() => {});
  }
}

function* indexChunks(
  writer: SitemapIndexWriter,
  plan: FilePlan,
  count: number,
): Generator<string> {
  yield writer.open();
  for (let n = 1; n <= count; n++) {
    const loc = plan.partUrl(n);
    const result = writer.write(
      plan.indexLastmod === undefined ? { loc } : { loc, lastmod: plan.indexLastmod },
    );
    // Parts are capped at the index's entry limit; only a huge baseUrl can pass its bytes.
    if (!result.written) {
      throw new WaymarkError(
        'invalid-argument',
        `cannot write sitemaps: ${count} part URLs do not fit in one index (${result.full})`,
      );
    }
    yield result.xml;
  }
  yield writer.close();
}
