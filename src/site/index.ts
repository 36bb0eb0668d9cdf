/**
 * Live `robots.txt` and sitemaps for a content root: a Web-standard handler that builds
 * them per request from the documents on disk, their sidecars and the configuration, so
 * they never drift from the content; plus a Node adapter and the pieces it is made of.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createSiteHandler, toNodeListener } from 'waymark/site';
 * const handler = createSiteHandler({ root: 'content' });
 * createServer(toNodeListener(handler)).listen(8080);
 * ```
 *
 * @module
 */
export type {
  SiteDiagnostic,
  SiteDiagnosticsReport,
  SiteHandler,
  SiteHandlerOptions,
  SiteIndexNowReport,
} from './create-site-handler.ts';
export { createSiteHandler } from './create-site-handler.ts';
export type { PageAccess } from './internal/sidecar.ts';
export type {
  FolderWatch,
  PageMeta,
  PageMetaCacheOptions,
  PageMetaSnapshot,
  RevalidateMode,
  WatchFolder,
} from './page-meta-cache.ts';
export { PageMetaCache, SITE_CONFIG_FILE } from './page-meta-cache.ts';
export type { ReservedPath } from './reserved-paths.ts';
export { ReservedPaths } from './reserved-paths.ts';
export type {
  ReservedPathInput,
  SiteConfig,
  SiteConfigReading,
  SiteContentUsage,
  SiteIndexNowConfig,
  SiteRobotsRule,
  SiteRobotsUsage,
} from './site-config.ts';
export { DEFAULT_SITE_CONFIG, parseSiteConfig, resolveSiteConfig } from './site-config.ts';
export type { SiteServer, SiteServerOptions } from './start-site-server.ts';
export { startSiteServer } from './start-site-server.ts';
export type { FetchHandler, NodeListenerOptions } from './to-node-listener.ts';
export { toNodeListener } from './to-node-listener.ts';
export type { AliasProblem, AliasValidation, ValidateAliasOptions } from './validate-alias.ts';
export { MAX_ALIAS_LENGTH, validateAlias } from './validate-alias.ts';
