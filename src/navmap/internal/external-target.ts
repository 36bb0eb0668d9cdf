// Where an `<external>` points: an element of a loaded document, or why it cannot be
// spliced. A reference to a file not loaded yet is added to `pending`, for the loader.

import type { NavmapFile } from './navmap-assembler.ts';
import type { RawDocument, RawElement } from './navmap-document.ts';

/** A target to splice, or a problem (with the reference's URL for a placeholder, if any). */
export type ExternalTarget =
  | { readonly doc: RawDocument; readonly element: RawElement }
  | {
      readonly problem: readonly ['info' | 'warning' | 'error', string, string];
      readonly url: string | null;
    };

/**
 * Resolves an `xlink:href` against the element's base; `#id` is a same-document reference
 * whatever `xml:base` says (RFC 3986 §4.4). Without a fragment, the target is the root.
 */
export function resolveExternal(
  element: RawElement,
  href: string,
  doc: RawDocument,
  files: ReadonlyMap<string, NavmapFile>,
  pending: Set<string>,
  missingSeverity: 'info' | 'error',
): ExternalTarget {
  let fileUrl = doc.url;
  let id: string | null;
  let absolute: string;
  if (href.startsWith('#')) {
    // A same-document reference, whatever xml:base says (RFC 3986 §4.4).
    id = safeDecode(href.slice(1));
    absolute = `${doc.url.split('#')[0]}${href}`;
  } else {
    const url = URL.parse(href, element.base);
    if (url === null) {
      return {
        problem: ['warning', 'invalid-url', `xlink:href "${href}" is not a URL`],
        url: null,
      };
    }
    absolute = url.href;
    id = url.hash.length > 1 ? safeDecode(url.hash.slice(1)) : null;
    url.hash = '';
    fileUrl = url.href;
  }
  let target: RawDocument = doc;
  if (fileUrl !== doc.url) {
    const file = files.get(fileUrl);
    if (file === undefined) {
      pending.add(fileUrl);
      const severity = missingSeverity;
      return {
        problem: [
          severity,
          'external-not-loaded',
          `${fileUrl} is not loaded; that branch is left out`,
        ],
        url: absolute,
      };
    }
    if ('failed' in file) {
      return {
        problem: [
          'error',
          'external-failed',
          `${fileUrl}: ${file.failed}; that branch is left out`,
        ],
        url: absolute,
      };
    }
    if (file.root === null) {
      const why = file.problem ?? 'not a navigational sitemap';
      return { problem: ['error', 'external-failed', `${fileUrl}: ${why}`], url: absolute };
    }
    target = file;
  }
  if (id === null) return { doc: target, element: target.root as RawElement };
  const found = target.ids.get(id);
  if (found === undefined) {
    return {
      problem: ['warning', 'external-id-missing', `no element has xml:id "${id}" in ${target.url}`],
      url: absolute,
    };
  }
  return { doc: target, element: found };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
