// The real-world robots.txt corpus, read in place, with test URLs derived from each file's rules.

import { readdirSync, readFileSync } from 'node:fs';
import { parseRobots, pathForMatching } from '../../src/robots/index.ts';

export const CORPUS_DIR = new URL('../../../shared/fixtures/robots/corpus/files/', import.meta.url);

/** Product tokens every URL is checked with: two real crawlers and one no file names. */
export const AGENTS = ['Googlebot', 'bingbot', 'waymarkbot'] as const;

/** Checked on every host, whatever its rules. */
const GENERIC_PATHS = ['/', '/index.html?x=1', '/search?q=waymark&page=2'];

export interface CorpusFile {
  /** The host, from the file name (`_` stands for `:`). */
  readonly host: string;
  readonly robotsUrl: string;
  readonly bytes: Uint8Array;
  /** The bytes decoded as `fetch(...).text()` would: UTF-8, BOM dropped, U+FFFD for bad bytes. */
  readonly text: string;
  /** Full, percent-encoded URLs on the file's own host (`new URL(x).href`). */
  readonly urls: readonly string[];
  /** Path and query of each URL as Google extracts it (`/search?` keeps its `?`), for peers that take a path. */
  readonly paths: readonly string[];
}

export interface Corpus {
  readonly files: readonly CorpusFile[];
  readonly totalBytes: number;
  readonly totalUrls: number;
  /** URLs times agents. */
  readonly checks: number;
}

export function loadCorpus(maxUrlsPerFile: number): Corpus {
  const decoder = new TextDecoder();
  const files = readdirSync(CORPUS_DIR)
    .sort()
    .map((name): CorpusFile => {
      const host = name.replaceAll('_', ':');
      const origin = new URL(`https://${host}/`).origin;
      const bytes = new Uint8Array(readFileSync(new URL(name, CORPUS_DIR)));
      const text = decoder.decode(bytes);
      const urls = testUrls(origin, text, maxUrlsPerFile);
      const paths = urls.map(pathForMatching);
      return { host, robotsUrl: `${origin}/robots.txt`, bytes, text, urls, paths };
    });
  const totalBytes = files.reduce((sum, file) => sum + file.bytes.length, 0);
  const totalUrls = files.reduce((sum, file) => sum + file.urls.length, 0);
  return { files, totalBytes, totalUrls, checks: totalUrls * AGENTS.length };
}

/**
 * A few generic URLs, then for each allow or disallow pattern: its literal prefix (up to the
 * first `*` or `$`), that prefix one path segment deeper, and for a wildcard pattern the
 * pattern with each `*` filled in. Capped by an even sample over the rule-derived ones.
 */
function testUrls(origin: string, text: string, max: number): string[] {
  const derived: string[] = [];
  for (const group of parseRobots(text, { maxBytes: Number.POSITIVE_INFINITY }).groups) {
    for (const { pattern } of group.rules) {
      if (pattern === '') continue;
      const prefix = withLeadingSlash(pattern.split(/[*$]/, 1)[0] ?? '');
      derived.push(prefix, prefix.endsWith('/') ? `${prefix}waymark` : `${prefix}/waymark`);
      if (/[*$]/.test(pattern)) {
        derived.push(withLeadingSlash(pattern.replace(/\$$/, '').replaceAll('*', 'x')));
      }
    }
  }
  const urls = new Set<string>();
  for (const path of GENERIC_PATHS) addUrl(urls, origin, path);
  const unique = [...new Set(derived)];
  const room = max - urls.size;
  const step = Math.max(1, unique.length / room);
  for (let i = 0; i < unique.length && urls.size < max; i += step) {
    addUrl(urls, origin, unique[Math.floor(i)] ?? '/');
  }
  return [...urls];
}

function withLeadingSlash(path: string): string {
  return path.startsWith('/') ? path : `/${path}`;
}

/** Adds the URL as `new URL` writes it, when it parses and stays on `origin`. */
function addUrl(urls: Set<string>, origin: string, path: string): void {
  let url: URL;
  try {
    url = new URL(origin + path);
  } catch {
    return;
  }
  if (url.origin === origin) urls.add(url.href);
}
