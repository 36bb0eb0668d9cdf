// sitemapper: a fetcher and parser in one; HTTP is its only way in.

import Sitemapper from 'sitemapper';
import { localUrl, type SitemapReader } from './sitemap-readers.ts';
import { SHOP_ORIGIN } from './sitemap-shop.ts';

/**
 * sitemapper: fetches with got (its only way in), inflates `.gz` by its magic bytes and
 * parses the whole body at once with fast-xml-parser; follows indexes, 10 parts at a time.
 */
export const sitemapper: SitemapReader = {
  name: 'sitemapper',
  via: 'HTTP, got + fast-xml-parser',
  overHttp: true,
  reads: ['urlset', 'index'],
  async read(target, collect) {
    const mapper = new Sitemapper({ timeout: 300_000 });
    // Its one fetching step, pointed at the bench server. It keys its timeout timer by the
    // URL it fetched, so that one is cleared here (the caller clears the shop URL's).
    const parse = mapper['parse'].bind(mapper);
    mapper['parse'] = async (url: string) => {
      const local = localUrl(url, SHOP_ORIGIN, target.server);
      try {
        return await parse(local);
      } finally {
        clearTimeout(mapper.timeoutTable[local]);
      }
    };
    const { sites, errors } = await mapper.fetch(target.url);
    return { count: sites.length, locs: collect ? sites : [], problems: errors.length };
  },
};
