import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import type { Diagnostic } from '../../shared/diagnostic.ts';
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
  /** `.md` or `.markdown`. */
  readonly markdown: boolean;
  /** Epoch ms: the later of the document's and its sidecar's modification times. */
  readonly lastModified: number;
  readonly size: number;
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
  if (st.size > MAX_SIDECAR_BYTES) {
    return {
      stamp,
      mtimeMs: st.mtimeMs,
      meta: brokenSidecar(
        'sidecar-too-large',
        `the sidecar is larger than ${MAX_SIDECAR_BYTES} bytes`,
      ),
    };
  }
  let text: string;
  try {
    text = await readFile(abs, 'utf8');
  } catch (error) {
    // Gone between lstat and read: the watcher reports the removal next.
    return {
      stamp,
      mtimeMs: st.mtimeMs,
      meta: brokenSidecar(
        'sidecar-unreadable',
        `the sidecar cannot be read: ${(error as Error).message}`,
      ),
    };
  }
  return { stamp, mtimeMs: st.mtimeMs, meta: parseSidecar(text) };
}

/** The metadata of one document from its file's stat and its sidecar. */
export function pageMeta(path: string, st: Stats, sidecar: SidecarRecord | null): PageMeta {
  const meta = sidecar?.meta ?? NO_SIDECAR;
  return {
    path,
    id: meta.id ?? derivedId(path),
    alias: meta.alias,
    access: meta.broken ? 'deny' : meta.access,
    roles: meta.roles,
    noindex: meta.noindex,
    title: meta.title,
    markdown: MARKDOWN_EXTENSION.test(path),
    lastModified: Math.max(st.mtimeMs, sidecar?.mtimeMs ?? 0),
    size: st.size,
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
