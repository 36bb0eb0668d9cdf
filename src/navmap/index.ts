/**
 * Navigational sitemaps (standard-sitemap.org, namespace `http://standard-sitemap.org/2007/ns`):
 * find the one a page names (never by guessing), parse it into a navigation tree with roles
 * and inheritance, follow its `external` files, and render it as text, JSON or HTML.
 *
 * @example
 * ```ts
 * import { loadNavmap, renderNavmap } from 'waymark/navmap';
 * const { tree } = await loadNavmap('https://ex.org/docs/p.html');
 * if (tree?.root) process.stdout.write(renderNavmap(tree, 'text'));
 * ```
 *
 * @module
 */
export type {
  DiscoverNavmapOptions,
  NavmapDiscovery,
  NavmapDiscoveryStep,
  NavmapPage,
  PageHeaders,
} from './discover-navmap.ts';
export { discoverNavmap, explainNavmapDiscovery } from './discover-navmap.ts';
export type { LoadNavmapFileOptions, LoadNavmapOptions, NavmapLoad } from './load-navmap.ts';
export { loadNavmap, loadNavmapFile } from './load-navmap.ts';
export { MAX_NAVMAP_BYTES, MAX_NAVMAP_FILES, NAVMAP_NS } from './navmap-names.ts';
export type { ParseNavmapOptions } from './parse-navmap.ts';
export { parseNavmap } from './parse-navmap.ts';
export type { NavmapFormat } from './render-navmap.ts';
export { renderNavmap } from './render-navmap.ts';
export type {
  NavmapClassChange,
  NavmapDiagnostic,
  NavmapExtra,
  NavmapInherited,
  NavmapLocation,
  NavmapNode,
  NavmapRoleTarget,
  NavmapSource,
  NavmapTree,
  NavmapVariant,
  NavmapVia,
} from './types.ts';
