// Bounds the sitemap reader keeps to whatever it is fed, so that hostile input costs neither
// memory nor time beyond its size. Far above anything a real sitemap needs.

/**
 * Characters of one value kept (a `loc`, a date, a title, a line of a text sitemap): the
 * protocol's longest is 2,048. A longer one is dropped with a diagnostic, not held.
 */
export const MAX_VALUE_CHARS = 65_536;

export { MAX_XML_DEPTH } from '../../shared/xml/xml-limits.ts';
