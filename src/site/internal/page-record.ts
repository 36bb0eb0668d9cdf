import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import type { Diagnostic } from '../../shared/diagnostic.ts';
import { readSmallFile } from './read-small-file.ts';
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

export interface PageRecord {
  readonly stamp: string;
  readonly symlink: boolean;
  readonly sidecar: SidecarRecord | null;
  readonly meta: PageMeta;
}

/** Changes whenever the file is written, renamed over, or its times are set. */
export function fileStamp(st: Stats): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

/** A stable id from the relative path: the first 16 hex digits of its SHA-256. */
export function derivedId(path: string): string {
  return createHash('sha256').update(path).digest('hex').slice(0, 16);
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
  // Read from what is opened (no link followed, no FIFO waited on), within the limit.
  const file = await readSmallFile(abs, MAX_SIDECAR_BYTES, false);
  if (!file.ok) {
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
    size: st.size,
    dev: st.dev,
    ino: st.ino,
    symlink,
    diagnostics: meta.diagnostics,
  };
}

function brokenSidecar(code: string, message: string): SidecarMeta {
  return {
    ...NO_SIDECAR,
    broken: true,
    diagnostics: [{ code, severity: 'error', message, line: 1, column: 1 }],
  };
}
