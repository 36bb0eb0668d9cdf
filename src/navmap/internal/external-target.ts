// Where an `<external>` points: an element of a loaded document, or why it cannot be
// spliced. A reference to a file not loaded yet is added to `pending`, for the loader.

import { NAVMAP_NS } from '../navmap-names.ts';
import type { NavmapFile } from './navmap-assembler.ts';
import type { RawDocument, RawElement } from './raw-document.ts';

/**
 * A target to splice - an `item` or `group` (`node`), another `external` (`chain`), or a
 * file's root, whose children are spliced (`file`) - or a problem, with the reference's URL
 * when the reference should stay in the tree as a placeholder.
 */
export type ExternalTarget =
  | {
      readonly kind: 'node' | 'chain' | 'file';
      readonly doc: RawDocument;
      readonly element: RawElement;
    }
  | {
      readonly problem: readonly ['info' | 'warning' | 'error', string, string];
      readonly url: string | null;
    };

/**
 * The reference of an `<external>`: `xlink:href`, or the obsolete `url` (`obsolete`, for a
 * note); null when it has neither, or an empty one.
 *
 * @example
 * ```ts
 * externalHref(element); // { href: 'parts.xml#faq', obsolete: false }
 * ```
 */
export function externalHref(element: RawElement): { href: string | null; obsolete: boolean } {
  const obsolete = element.href === null && element.attributes['url'] !== undefined;
  const href = (element.href ?? element.attributes['url'] ?? '').trim();
  return { href: href === '' ? null : href, obsolete };
}

/**
 * Resolves an `xlink:href` against the element's base; `#id` is a same-document reference
 * whatever `xml:base` says (RFC 3986 §4.4). Without a fragment, the target is the root.
 *
 * @example
 * ```ts
 * const target = resolveExternal(element, 'parts.xml#faq', doc, files, pending, 'error');
 * if ('problem' in target) report(...target.problem);
 * ```
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
      return {
        problem: [
          missingSeverity,
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
  const found = id === null ? (target.root as RawElement) : target.ids.get(id);
  if (found === undefined) {
    return {
      problem: ['warning', 'external-id-missing', `no element has xml:id "${id}" in ${target.url}`],
      url: absolute,
    };
  }
  if (found === target.root) return { kind: 'file', doc: target, element: found };
  if (found.ns === NAVMAP_NS && (found.name === 'item' || found.name === 'group')) {
    return { kind: 'node', doc: target, element: found };
  }
  if (found.ns === NAVMAP_NS && found.name === 'external') {
    return { kind: 'chain', doc: target, element: found };
  }
  return {
    problem: [
      'warning',
      'external-target-invalid',
      `<external> points at <${found.name}>, which is not an item, group or sitemap`,
    ],
    url: null,
  };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
