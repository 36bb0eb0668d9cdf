import { commandGroup } from '../internal/command-group.ts';
import { sitemapParse } from './sitemap-parse.ts';
import { sitemapWrite } from './sitemap-write.ts';

export const sitemap = commandGroup('waymark sitemap', 'Read and write sitemaps.', {
  parse: sitemapParse,
  write: sitemapWrite,
});
