import { commandGroup } from '../internal/command-group.ts';
import { type LazyCommand, lazyCommand } from '../internal/lazy-command.ts';

/**
 * The sitemap subcommands, each loaded when it runs: `waymark sitemap parse` does not load the
 * writer, the validator or the differ (nor, for a file, the HTTP client).
 */
export const SITEMAP_COMMANDS: Readonly<Record<string, LazyCommand>> = {
  diff: lazyCommand(
    'compare two sitemaps: added, removed, lastmod changed',
    async () => (await import('./sitemap-diff.ts')).sitemapDiff,
  ),
  parse: lazyCommand(
    'print the URLs of a sitemap, following indexes with --recursive',
    async () => (await import('./sitemap-parse.ts')).sitemapParse,
  ),
  validate: lazyCommand(
    'check a sitemap against the schemas and the protocol',
    async () => (await import('./sitemap-validate.ts')).sitemapValidate,
  ),
  write: lazyCommand(
    'write sitemap files from URLs or JSON lines',
    async () => (await import('./sitemap-write.ts')).sitemapWrite,
  ),
};

export const sitemap = commandGroup('waymark sitemap', 'read and write sitemaps', SITEMAP_COMMANDS);
