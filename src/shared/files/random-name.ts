/**
 * Twelve random hex digits, for names of temporary and probe files. node:crypto is loaded on
 * the first call, not with the modules that write files: it adds some 3-6 MB of RSS to a
 * program that only reads (`waymark/sitemap/node` holds both the reader and the writer).
 */
export async function randomHex(): Promise<string> {
  const { randomBytes } = await import('node:crypto');
  return randomBytes(6).toString('hex');
}
