// The shop every bench sitemap is for, in a module of its own: the measured child processes
// need its origin, and importing it from sitemap-inputs.ts would load node:zlib (for
// writing the .gz inputs) into a process whose memory is being measured.

/** The site every sitemap is for and on. Never contacted: readers fetch from the bench server. */
export const SHOP_ORIGIN = 'https://www.example-shop.com';
