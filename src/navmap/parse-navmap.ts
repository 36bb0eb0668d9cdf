import { assembleNavmap } from './internal/navmap-assembler.ts';
import { readNavmapDocument } from './internal/navmap-document.ts';
import { checkedMaxNodes, documentUrl } from './internal/navmap-options.ts';
import type { NavmapTree } from './types.ts';

/** Options of {@link parseNavmap}. */
export interface ParseNavmapOptions {
  /** The document's URL after redirects: the base of its relative URLs. Required. */
  readonly url: string;
  /** The HTTP `charset` parameter, if any: it overrides the XML declaration (a BOM wins). */
  readonly charset?: string;
  /**
   * Most nodes built (each place a node appears counts). Default 100,000. Past it, the rest is
   * left out with an error diagnostic.
   */
  readonly maxNodes?: number;
}

/**
 * Parses one navigational sitemap document into its tree: nodes with label, absolute URL,
 * roles, inherited `lang`/`type`/`charset`/`target`, variants and children, plus the role
 * index, the `class-change` instructions and diagnostics. Total: any bytes in, never a
 * throw (past `MAX_NAVMAP_BYTES`, 64 MiB, the rest is left out with a `too-large` error
 * diagnostic); no DTD, external entity or entity expansion is ever read. `external`
 * references within the document (`#id`) are followed; references to other files are kept
 * as `external` placeholder nodes and listed in `unresolved` (use {@link loadNavmap} to
 * fetch them).
 *
 * @example
 * ```ts
 * const tree = parseNavmap(bytes, { url: 'https://ex.org/nav/map.xml' });
 * tree.root?.children[0]?.label; // 'Home'
 * tree.roles['home']; // [{ label: 'Home', url: 'https://ex.org/index.html' }]
 * ```
 */
export function parseNavmap(input: Uint8Array | string, options: ParseNavmapOptions): NavmapTree {
  const url = documentUrl(options.url);
  const maxNodes = checkedMaxNodes(options.maxNodes);
  const document = readNavmapDocument(input, url, options.charset);
  return assembleNavmap(url, new Map([[url, document]]), { maxNodes, missingSeverity: 'info' })
    .tree;
}
