export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
export const IMAGE_NS = 'http://www.google.com/schemas/sitemap-image/1.1';
export const VIDEO_NS = 'http://www.google.com/schemas/sitemap-video/1.1';
export const NEWS_NS = 'http://www.google.com/schemas/sitemap-news/0.9';
export const XHTML_NS = 'http://www.w3.org/1999/xhtml';

/** Extension elements by namespace, and by the prefix everyone uses when it is undeclared. */
export const EXTENSIONS: Readonly<Record<string, 'image' | 'video' | 'news' | 'xhtml'>> = {
  [IMAGE_NS]: 'image',
  [VIDEO_NS]: 'video',
  [NEWS_NS]: 'news',
  [XHTML_NS]: 'xhtml',
};

export const CONVENTIONAL_PREFIXES: ReadonlySet<string> = new Set([
  'image',
  'video',
  'news',
  'xhtml',
]);
