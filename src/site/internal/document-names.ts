import { posix } from 'node:path';
import { MAX_MARKDOWN_BYTES, readText } from './document-text.ts';
import { displayText, firstHeading } from './first-heading.ts';
import { splitFrontMatter } from './front-matter.ts';
import type { ListedDocument } from './listing-page.ts';
import { openDocument } from './open-document.ts';
import { MARKDOWN_EXTENSION, type PageMeta } from './page-record.ts';
import type { SiteEntry } from './site-index.ts';
import { drainQueue } from './work-queue.ts';

/** Files read at once to find headings for the listing. */
const READERS = 8;

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
  readonly #headings = new WeakMap<PageMeta, Promise<string | null>>();

  /** The listed documents of an index, named. */
  async listing(root: string, entries: readonly SiteEntry[]): Promise<ListedDocument[]> {
    const named: ListedDocument[] = [];
    const queue = [...entries];
    await drainQueue(queue, READERS, async (entry) => {
      const { page } = entry;
      const title = page.title === null ? '' : displayText(page.title);
      const name = title || (await this.#heading(root, page)) || fileName(page.path);
      named.push({ path: page.path, href: entry.canonicalPath, title: name });
    });
    return named;
  }

  #heading(root: string, page: PageMeta): Promise<string | null> {
    let known = this.#headings.get(page);
    if (known === undefined) {
      known = readHeading(root, page).then(
        (heading) => {
          if (heading === undefined) this.#headings.delete(page);
          return heading ?? null;
        },
        () => {
          this.#headings.delete(page);
          return null;
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
