import { readdir, rm, rmdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { WaymarkError } from '../../shared/waymark-error.ts';
import { io } from './write-file-io.ts';
import { checkDatetime, type Fail, quote } from './write-values.ts';

/** Where `writeSitemaps` puts each file, on disk and on the web. */
export interface FilePlan {
  readonly dir: string;
  readonly partsPath: string;
  readonly gzip: boolean;
  /** `sitemap.xml[.gz]`, when everything fits in one file. */
  readonly single: string;
  readonly singleUrl: string;
  readonly index: string;
  readonly indexUrl: string;
  readonly indexLastmod: string | undefined;
  readonly partFile: (n: number) => string;
  readonly partUrl: (n: number) => string;
  /** The names of the entry points (one file, the index) an earlier run may have left. */
  readonly entryPoints: readonly string[];
  /** A part's file name under this plan's names. */
  readonly partName: RegExp;
}

export interface FilePlanOptions {
  readonly dir: string;
  readonly baseUrl: string;
  readonly gzip?: boolean;
  readonly partsDir?: string;
  readonly indexLastmod?: string | Date;
  /**
   * The one file's name, and the index's when the entries are split (`sitemap.xml` both:
   * what robots.txt names stays the entry point); parts are then `<stem>-part-0001.xml`. Without
   * it: `sitemap.xml`, `sitemap_index.xml` and `sitemap-0001.xml`. For `waymark crawl --out`.
   */
  readonly fileName?: string;
}

// Relative folder names that mean the same on disk and in a URL path.
const PARTS_DIR = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/|$))*$/;
/** A file name `fileName` may be: plain, ending in `.xml`, no folder. */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.xml$/;

/** Checks the file options and names every file, before anything touches the disk. */
export function planFiles(options: FilePlanOptions): FilePlan {
  const fail: Fail = (message) => {
    throw new WaymarkError('invalid-argument', `cannot write sitemaps: ${message}`);
  };
  if (typeof options.dir !== 'string' || options.dir === '') fail('dir is not a path');
  const base = URL.parse(options.baseUrl);
  if (base === null || (base.protocol !== 'http:' && base.protocol !== 'https:')) {
    fail(`baseUrl ${quote(options.baseUrl)} is not an absolute http(s) URL`);
  }
  if (base.search !== '' || base.hash !== '') {
    fail(`baseUrl ${quote(options.baseUrl)} has a query or fragment`);
  }
  // The URL of a folder: without the slash, new URL('x', base) would replace its last segment.
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  const partsDir = options.partsDir ?? 'sitemaps';
  if (!PARTS_DIR.test(partsDir)) {
    fail(`partsDir ${quote(partsDir)} is not a relative folder of letters, digits, ".", "_", "-"`);
  }
  const indexLastmod =
    options.indexLastmod === undefined
      ? undefined
      : checkDatetime(options.indexLastmod, 'indexLastmod', fail);
  const { fileName } = options;
  if (fileName !== undefined && !FILE_NAME.test(fileName)) {
    fail(
      `fileName ${quote(fileName)} is not a file name of letters, digits, ".", "_", "-" ending in .xml`,
    );
  }
  if (fileName !== undefined && options.gzip === true)
    fail('fileName is for plain files, not gzip');
  const gzip = options.gzip === true;
  const extension = gzip ? '.xml.gz' : '.xml';
  const dir = resolve(options.dir);
  const partsPath = join(dir, partsDir);
  const folder = partsDir === '' || partsDir.endsWith('/') ? partsDir : `${partsDir}/`;
  // Beside a file the caller named, parts get a name of their own (`sitemap-part-0001.xml`):
  // stale ones are removed by that name, and `sitemap-2024.xml` in the same folder is the
  // caller's, not a part.
  const stem = fileName === undefined ? 'sitemap' : `${fileName.slice(0, -'.xml'.length)}-part`;
  const partName = (n: number): string => `${stem}-${String(n).padStart(4, '0')}${extension}`;
  const single = fileName ?? `sitemap${extension}`;
  const index = fileName ?? 'sitemap_index.xml';
  return {
    dir,
    partsPath,
    gzip,
    single: join(dir, single),
    singleUrl: new URL(single, base).href,
    index: join(dir, index),
    indexUrl: new URL(index, base).href,
    indexLastmod,
    partFile: (n) => join(partsPath, partName(n)),
    partUrl: (n) => new URL(`${folder}${partName(n)}`, base).href,
    entryPoints:
      fileName === undefined
        ? [join(dir, 'sitemap.xml'), join(dir, 'sitemap.xml.gz'), join(dir, index)]
        : [join(dir, fileName)],
    partName: new RegExp(`^${stem.replaceAll('.', '\\.')}-\\d{4,}\\.xml(?:\\.gz)?$`),
  };
}

/**
 * Removes what an earlier run wrote under these names and this run did not: first the
 * entry points (so nothing names an old part), then unused parts, then an empty parts
 * folder. Files under other names are never touched.
 */
export async function removeStale(plan: FilePlan, keep: ReadonlySet<string>): Promise<void> {
  for (const path of plan.entryPoints) {
    if (!keep.has(path)) await io(`remove ${path}`, () => rm(path, { force: true }));
  }
  const names = await readdir(plan.partsPath).catch(() => [] as string[]);
  for (const name of names) {
    const path = join(plan.partsPath, name);
    if (plan.partName.test(name) && !keep.has(path)) {
      await io(`remove ${path}`, () => rm(path, { force: true }));
    }
  }
  if (plan.partsPath !== plan.dir && !keep.has(plan.index)) {
    await rmdir(plan.partsPath).catch(() => {});
  }
}
