// A reference, not a contender: Node's own fetch draining the document's body without
// parsing it. Over HTTP, a process's peak RSS has a floor that no sitemap reader sets: the
// HTTP client loaded and its buffers churning. This row shows that floor beside the readers.

import { localUrl, REFERENCE_READER_NAME, type SitemapReader } from './sitemap-readers.ts';
import { SHOP_ORIGIN } from './sitemap-shop.ts';

export const fetchOnly: SitemapReader = {
  name: REFERENCE_READER_NAME,
  via: 'HTTP, body drained unparsed (reference)',
  overHttp: true,
  reads: ['urlset'],
  async read(target) {
    const response = await fetch(localUrl(target.url, SHOP_ORIGIN, target.server));
    let bytes = 0;
    for await (const chunk of response.body ?? []) bytes += chunk.length;
    // No URLs: the count is the bytes drained, so a failed read still shows.
    return { count: bytes, locs: [], problems: response.status === 200 ? 0 : 1 };
  },
};
