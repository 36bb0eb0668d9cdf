import { posix } from 'node:path';
import { MAX_MARKDOWN_BYTES, readText } from './document-text.ts';
import { displayText, firstHeading } from './first-heading.ts';
import { splitFrontMatter } from './front-matter.ts';
import { type ListedDocument, renderListingPage } from './listing-page.ts';
import { openDocument } from './open-document.ts';
import { MARKDOWN_EXTENSION, type PageMeta } from './page-record.ts';
import type { SiteEntry } from './site-index.ts';
import { drainQueue } from './work-queue.ts';

/** Files read at once to find headings for the listing. */
const READERS = 8;
/** How long a listing that could not read every heading is kept before it is made again. */
const RETRY_INCOMPLETE_MS = 10_000;

/**
 * The name of a document without a title or heading: its file name, without `.md` or
 * `.markdown` (`guides/setup.md` is `setup`).
 */
export function fileName(path: string): string {
  const base = posix.basename(path);
  return displayText(base.replace(MARKDOWN_EXTENSION, '')) || displayText(base) || path;
}

/**
 * The names the listing at `/` shows: the sidecar's `title`, else the document's first
 * heading (see `firstHeading`; front matter is not looked at), else its file name; the
 * same choice as the `<title>` of its page. A heading is read once per version of the
 * file: the index makes a new `PageMeta` whenever a document or its sidecar changes, and
 * headings are kept by that object, so they go when it does. A file that cannot be opened
 * is named by its file name this time and read again next time.
 */
export class DocumentNames {
  readonly #headings = new WeakMap<PageMeta, Promise<string | null | undefined>>();
  /** The listing's page for one state (by its serial): it depends on nothing in a request. */
  #page: { readonly serial: number; readonly html: Promise<string>; until: number } | null = null;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * The listing at `/` as a page, made once per state: a root of 100,000 documents takes
   * a second of CPU to name and render, which must not be spent per request on the thread
   * that answers robots.txt. A listing that could not read every heading (a file being
   * replaced, one this process may not read) is made again, at most every
   * {@link RETRY_INCOMPLETE_MS}.
   */
  listingPage(root: string, entries: readonly SiteEntry[], serial: number): Promise<string> {
    const known = this.#page;
    if (known?.serial === serial && this.#now() < known.until) return known.html;
    const page = {
      serial,
      until: Number.POSITIVE_INFINITY,
      html: this.listing(root, entries).then(({ documents, complete }) => {
        if (!complete) page.until = this.#now() + RETRY_INCOMPLETE_MS;
        return renderListingPage(documents);
      }),
    };
    page.html.catch(() => {
      if (this.#page === page) this.#page = null;
    });
    this.#page = page;
    return page.html;
  }

  /**
   * The listed documents of an index, named; `complete` is false when a heading could not
   * be read (that document is named by its file name this time).
   */
  async listing(
    root: string,
    entries: readonly SiteEntry[],
  ): Promise<{ documents: ListedDocument[]; complete: boolean }> {
    const documents: ListedDocument[] = [];
    let complete = true;
    const queue = [...entries];
    await drainQueue(queue, READERS, async (entry) => {
      const { page } = entry;
      const title = page.title === null ? '' : displayText(page.title);
      let name = title;
      if (name === '') {
        const heading = await this.#heading(root, page);
        if (heading === undefined) complete = false;
        name = heading || fileName(page.path);
      }
      documents.push({ path: page.path, href: entry.canonicalPath, title: name });
    });
    return { documents, complete };
  }

  #heading(root: string, page: PageMeta): Promise<string | null | undefined> {
    let known = this.#headings.get(page);
    if (known === undefined) {
      known = readHeading(root, page).then(
        (heading) => {
          if (heading === undefined) this.#headings.delete(page);
          return heading;
        },
        () => {
          this.#headings.delete(page);
          return undefined;
        },
      );
      this.#headings.set(page, known);
    }
    return known;
  }
}

/** The first heading of the file the index describes; undefined when it cannot be read. */
async function readHeading(root: string, page: PageMeta): Promise<string | null | undefined> {
  const opened = await openDocument(root, page);
  if (opened === null) return undefined;
  try {
    if (opened.stat.size > MAX_MARKDOWN_BYTES) return null;
    const text = await readText(opened, MAX_MARKDOWN_BYTES);
    return text === null ? undefined : firstHeading(splitFrontMatter(text).body);
  } finally {
    await opened.handle.close().catch(() => {});
  }
}
