import { commandGroup } from '../internal/command-group.ts';
import { sitemapDiff } from './sitemap-diff.ts';
import { sitemapParse } from './sitemap-parse.ts';
import { sitemapValidate } from './sitemap-validate.ts';
import { sitemapWrite } from './sitemap-write.ts';

export const sitemap = commandGroup('waymark sitemap', 'Read and write sitemaps.', {
  diff: sitemapDiff,
  parse: sitemapParse,
  validate: sitemapValidate,
  write: sitemapWrite,
});
