import { hash } from 'node:crypto';
import { lstatSync, type Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import type { Diagnostic } from '../../shared/diagnostic.ts';
import { readSmallFile, readSmallFileSync, type SmallFile } from './read-small-file.ts';
import { NO_SIDECAR, type PageAccess, parseSidecar, type SidecarMeta } from './sidecar.ts';

/** What the site knows about one document, rebuilt only when the document or sidecar changes. */
export interface PageMeta {
  /** Path relative to the content root, `/`-separated: `guides/setup.md`. */
  readonly path: string;
  /** Lower-case hex: the sidecar's `id`, or 16 digits derived from `path`. */
  readonly id: string;
  readonly alias: string | null;
  /** `deny` too when the sidecar is broken. */
  readonly access: PageAccess;
  readonly roles: readonly string[];
  readonly noindex: boolean;
  readonly title: string | null;
  /** The sidecar's `contentUsage`, or null. */
  readonly contentUsage: string | null;
  /** `.md` or `.markdown`. */
  readonly markdown: boolean;
  /** Epoch ms: the later of the document's and its sidecar's modification times. */
  readonly lastModified: number;
  readonly size: number;
  /**
   * The file the document is (for a link, the file it leads to), as device and inode: a
   * response serves only the file it opens when these still match.
   */
  readonly dev: number;
  readonly ino: number;
  /** The document is a symbolic link (to another document of the root). */
  readonly symlink: boolean;
  /** The sidecar's problems (an error means it was treated as not public). */
  readonly diagnostics: readonly Diagnostic[];
}

export const SIDECAR_SUFFIX = '.meta.yaml';
/** The extension of a document that is rendered: `.md` or `.markdown`, in any case. */
export const MARKDOWN_EXTENSION = /\.(?:md|markdown)$/i;
/** Larger sidecars are refused as broken: a sidecar holds a few keys. */
export const MAX_SIDECAR_BYTES = 64 * 1024;

export interface SidecarRecord {
  readonly stamp: string;
  readonly mtimeMs: number;
  readonly meta: SidecarMeta;
}

/**
 * One document as last read. Its stamp is kept as numbers (inode and size are the meta's;
 * mtime and ctime here), not as a string per document: see {@link unchangedFile}.
 */
export interface PageRecord {
  /**
   * The document's mtime, or null when it is `meta.lastModified` (no newer sidecar): most
   * documents then keep one boxed number fewer.
   */
  readonly mtimeMs: number | null;
  readonly ctimeMs: number;
  readonly sidecar: SidecarRecord | null;
  readonly meta: PageMeta;
}

/** Changes whenever the file is written, renamed over, or its times are set. */
export function fileStamp(st: Stats): string {
  // The same text as a template would give, as one flat string: a sidecar's stamp is kept
  // as long as its document, and a concatenation would keep a tree of seven strings.
  return [st.ino, st.size, st.mtimeMs, st.ctimeMs].join(':');
}

/** The file is as `record` saw it: what comparing the {@link fileStamp}s of both says. */
export function unchangedFile(record: PageRecord, st: Stats): boolean {
  return (
    record.meta.ino === st.ino &&
    record.meta.size === st.size &&
    (record.mtimeMs ?? record.meta.lastModified) === st.mtimeMs &&
    record.ctimeMs === st.ctimeMs
  );
}

/** A stable id from the relative path: the first 16 hex digits of its SHA-256. */
export function derivedId(path: string): string {
  // The first 16 digits as a string of their own (not a slice that keeps all 64 alive),
  // copied out of the hex digest: no Buffer per document.
  const hex = hash('sha256', path, 'hex');
  return String.fromCharCode(
    hex.charCodeAt(0),
    hex.charCodeAt(1),
    hex.charCodeAt(2),
    hex.charCodeAt(3),
    hex.charCodeAt(4),
    hex.charCodeAt(5),
    hex.charCodeAt(6),
    hex.charCodeAt(7),
    hex.charCodeAt(8),
    hex.charCodeAt(9),
    hex.charCodeAt(10),
    hex.charCodeAt(11),
    hex.charCodeAt(12),
    hex.charCodeAt(13),
    hex.charCodeAt(14),
    hex.charCodeAt(15),
  );
}

/** The sidecar beside `docAbs`: the previous reading when unchanged, null when absent. */
export async function loadSidecar(
  docAbs: string,
  previous: SidecarRecord | null,
): Promise<SidecarRecord | null> {
  const abs = docAbs + SIDECAR_SUFFIX;
  let st: Stats;
  try {
    st = await lstat(abs);
  } catch (error) {
    return lstatFailed(error, previous);
  }
  const known = beforeReading(st, previous);
  if (known !== undefined) return known;
  // Read from what is opened (no link followed, no FIFO waited on), within the limit.
  return fromFile(st, await readSmallFile(abs, MAX_SIDECAR_BYTES, false));
}

/**
 * {@link loadSidecar}, synchronously: for the scan of a whole folder tree, where a few
 * system calls on cached metadata cost less than handing each to the thread pool.
 */
export function loadSidecarSync(
  docAbs: string,
  previous: SidecarRecord | null,
): SidecarRecord | null {
  const abs = docAbs + SIDECAR_SUFFIX;
  if (previous === null) {
    // Nothing to compare with: open it straight away (no link followed, no FIFO waited
    // on, checked once opened), one system call fewer per sidecar on a first scan. What
    // was read is the record; anything else takes the checks below for the same record.
    const file = readSmallFileSync(abs, MAX_SIDECAR_BYTES, false);
    if (file.ok) return fromFile(file.stat, file);
  }
  let st: Stats;
  try {
    st = lstatSync(abs);
  } catch (error) {
    return lstatFailed(error, previous);
  }
  const known = beforeReading(st, previous);
  if (known !== undefined) return known;
  return fromFile(st, readSmallFileSync(abs, MAX_SIDECAR_BYTES, false));
}

function lstatFailed(error: unknown, previous: SidecarRecord | null): SidecarRecord | null {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return null;
  // It may say `access: deny`: a sidecar that cannot be checked must not make a page public.
  const stamp = `error:${code}`;
  if (previous !== null && previous.stamp === stamp) return previous;
  return {
    stamp,
    mtimeMs: 0,
    meta: brokenSidecar(
      'sidecar-unreadable',
      `the sidecar cannot be read: ${(error as Error).message}`,
    ),
  };
}

/** The record without reading the file (unchanged, or not a file); undefined: read it. */
function beforeReading(st: Stats, previous: SidecarRecord | null): SidecarRecord | undefined {
  const stamp = fileStamp(st);
  if (previous !== null && previous.stamp === stamp) return previous;
  if (!st.isFile()) {
    // A link (even one inside the root) or a folder: refused rather than ignored, for the
    // same reason; a link could also lead out of the root.
    return {
      stamp,
      mtimeMs: st.mtimeMs,
      meta: brokenSidecar('sidecar-not-a-file', 'the sidecar is not a regular file'),
    };
  }
  return undefined;
}

function fromFile(st: Stats, file: SmallFile): SidecarRecord | null {
  if (!file.ok) {
    const stamp = fileStamp(st);
    if (file.reason === 'missing') return null;
    const [code, message]: [string, string] =
      file.reason === 'too-large'
        ? ['sidecar-too-large', `the sidecar is larger than ${MAX_SIDECAR_BYTES} bytes`]
        : file.reason === 'not-a-file'
          ? ['sidecar-not-a-file', 'the sidecar is not a regular file']
          : ['sidecar-unreadable', `the sidecar cannot be read: ${file.message}`];
    return { stamp, mtimeMs: st.mtimeMs, meta: brokenSidecar(code, message) };
  }
  return {
    stamp: fileStamp(file.stat),
    mtimeMs: file.stat.mtimeMs,
    meta: parseSidecarSafely(file.text),
  };
}

/** {@link parseSidecar} is total; should it ever throw, the document is not public. */
function parseSidecarSafely(text: string): SidecarMeta {
  try {
    return parseSidecar(text);
  } catch (error) {
    return brokenSidecar('sidecar-yaml', `the sidecar cannot be read: ${(error as Error).message}`);
  }
}

/** What is kept of one document: its metadata and what tells whether the file changed. */
export function pageRecord(
  path: string,
  st: Stats,
  sidecar: SidecarRecord | null,
  symlink: boolean,
): PageRecord {
  const meta = pageMeta(path, st, sidecar, symlink);
  return {
    mtimeMs: meta.lastModified === st.mtimeMs ? null : st.mtimeMs,
    ctimeMs: st.ctimeMs,
    sidecar,
    meta,
  };
}

/** The metadata of one document from its file's stat and its sidecar. */
export function pageMeta(
  path: string,
  st: Stats,
  sidecar: SidecarRecord | null,
  symlink: boolean,
): PageMeta {
  const meta = sidecar?.meta ?? NO_SIDECAR;
  return {
    path,
    id: meta.id ?? derivedId(path),
    alias: meta.alias,
    access: meta.broken ? 'deny' : meta.access,
    roles: meta.roles,
    noindex: meta.noindex,
    title: meta.title,
    contentUsage: meta.contentUsage,
    markdown: MARKDOWN_EXTENSION.test(path),
    lastModified: Math.max(st.mtimeMs, sidecar?.mtimeMs ?? 0),
    size: smallInteger(st.size),
    dev: smallInteger(st.dev),
    ino: smallInteger(st.ino),
    symlink,
    diagnostics: meta.diagnostics,
  };
}

/**
 * The same number, as V8's small integer when it is one. `Stats` gives every field as a
 * heap number (`4096.0`); kept as such, each is a 16-byte box per document (three per
 * document here), where a small integer is stored in the field itself.
 */
export function smallInteger(n: number): number {
  return (n | 0) === n && !Object.is(n, -0) ? n | 0 : n;
}

function brokenSidecar(code: string, message: string): SidecarMeta {
  return {
    ...NO_SIDECAR,
    broken: true,
    diagnostics: [{ code, severity: 'error', message, line: 1, column: 1 }],
  };
}
