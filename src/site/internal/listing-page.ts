import { escapeHtml } from '../../shared/html/escape-html.ts';
import { htmlPage } from './page-shell.ts';

/** One document of the listing at `/`. */
export interface ListedDocument {
  /** Its path in the root, `/`-separated: the folder it is grouped under. */
  readonly path: string;
  /** Where it is published. */
  readonly href: string;
  /** The name shown (plain text; escaped here). */
  readonly title: string;
}

// Human order: `page 2` before `page 10`, `apple` beside `Apple`; fixed to one locale so the
// order does not depend on the machine's.
const COLLATOR = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * The noindex page at `/` of `waymark serve` (a way in, not content): the documents by
 * name, grouped by folder. Documents at the top of the root come first, under no folder
 * heading; then each folder that holds documents, under its whole path (`guides/`,
 * `guides/advanced/`), a folder right after its parent. Within a folder, by name, then by
 * path. Every string is escaped, so a name or folder written as markup stays text.
 */
export function renderListingPage(documents: readonly ListedDocument[]): string {
  const folders = new Map<string, ListedDocument[]>();
  for (const document of documents) {
    const cut = document.path.lastIndexOf('/');
    const folder = cut < 0 ? '' : document.path.slice(0, cut);
    const list = folders.get(folder);
    if (list === undefined) folders.set(folder, [document]);
    else list.push(document);
  }
  const sections: string[] = [];
  for (const folder of [...folders.keys()].sort(compareFolders)) {
    const list = (folders.get(folder) ?? []).sort(
      (a, b) => COLLATOR.compare(a.title, b.title) || compareCodeUnits(a.path, b.path),
    );
    const items = list
      .map((d) => `<li><a href="${escapeHtml(d.href)}">${escapeHtml(d.title)}</a></li>`)
      .join('\n');
    const heading = folder === '' ? '' : `<h2 class="folder">${escapeHtml(folder)}/</h2>\n`;
    sections.push(`<section>\n${heading}<ul class="pages">\n${items}\n</ul>\n</section>\n`);
  }
  const main =
    sections.length === 0
      ? '<h1>Pages</h1>\n<p>No page is listed yet.</p>\n'
      : `<h1>Pages</h1>\n${sections.join('')}`;
  return htmlPage({
    title: 'Pages',
    head: '<meta name="robots" content="noindex">\n',
    linkToListing: false,
    main,
  });
}

/** The root first; then folder by folder, so a folder comes right after its parent. */
function compareFolders(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return -1;
  if (b === '') return 1;
  const left = a.split('/');
  const right = b.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const order =
      COLLATOR.compare(left[i] ?? '', right[i] ?? '') ||
      compareCodeUnits(left[i] ?? '', right[i] ?? '');
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
