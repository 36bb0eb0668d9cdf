import { commandGroup } from '../internal/command-group.ts';
import { sitemapParse } from './sitemap-parse.ts';
import { sitemapValidate } from './sitemap-validate.ts';
import { sitemapWrite } from './sitemap-write.ts';

export const sitemap = commandGroup('waymark sitemap', 'Read and write sitemaps.', {
  parse: sitemapParse,
  validate: sitemapValidate,
  write: sitemapWrite,
});
