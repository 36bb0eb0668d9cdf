import { isValidIndexNowKey } from '../../indexnow/indexnow-key.ts';
import { CRAWLER_PURPOSES, type CrawlerPurpose } from '../../robots/agents/crawler-registry.ts';
import { parseUsageStatement, type UsageProblem } from '../../robots/usage-statement.ts';
import type { SiteConfig } from '../site-config.ts';
import { checkContentUsageValue } from './content-usage-value.ts';

/** A checked configuration value, or why it is wrong (see `checkKey` in site-config.ts). */
export type Checked = { ok: true; value: unknown } | { ok: false; message: string };

const fail = (message: string): Checked => ({ ok: false, message });

/** The IndexNow keys: `key` is required, the rest have defaults. */
const INDEXNOW_KEYS = new Set(['key', 'endpoint', 'keyLocation', 'debounceMs', 'minIntervalMs']);
/** Longest wait accepted for the debounce and the interval: one day. */
const MAX_WAIT_MS = 86_400_000;
/** A key file at the root of the host: `/<name>.txt`. */
const KEY_FILE_PATH = /^\/[A-Za-z0-9._~-]+\.txt$/;

/**
 * `indexnow: { key, endpoint?, keyLocation?, debounceMs?, minIntervalMs? }` or null. That
 * `origin` is set, and that an absolute `keyLocation` is on it, is checked with the whole
 * configuration (`crossCheck`).
 */
export function checkIndexNow(raw: unknown): Checked {
  if (raw === null) return { ok: true, value: null };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return fail('must be null or { key, endpoint, keyLocation, debounceMs, minIntervalMs }');
  }
  const value = raw as Record<string, unknown>;
  const unknown = Object.keys(value).find((key) => !INDEXNOW_KEYS.has(key));
  if (unknown !== undefined) return fail(`unknown key "${unknown}"`);
  const { key, endpoint, keyLocation, debounceMs, minIntervalMs } = value;
  if (typeof key === 'number') {
    // YAML reads an all-digit key (12345678) as a number: its text may already be lost.
    return fail('key must be text: quote a key made of digits (key: "12345678")');
  }
  if (typeof key !== 'string' || !isValidIndexNowKey(key)) {
    return fail('key must be 8 to 128 characters of a-z, A-Z, 0-9 and "-"');
  }
  if (endpoint !== undefined && !isHttpUrl(endpoint)) {
    return fail('endpoint must be an http(s) URL such as https://api.indexnow.org/indexnow');
  }
  if (keyLocation !== undefined && keyFilePathOf(keyLocation) === null) {
    return fail(
      'keyLocation must be a .txt file at the root of the site: /name.txt or https://host/name.txt',
    );
  }
  for (const [name, ms] of [
    ['debounceMs', debounceMs],
    ['minIntervalMs', minIntervalMs],
  ] as const) {
    if (
      ms !== undefined &&
      !(Number.isInteger(ms) && (ms as number) >= 0 && (ms as number) <= MAX_WAIT_MS)
    ) {
      return fail(`${name} must be a whole number of milliseconds from 0 to ${MAX_WAIT_MS}`);
    }
  }
  return { ok: true, value };
}

/**
 * The URL path the key file is served at: `keyLocation`'s path, else `/<key>.txt`. A
 * `keyLocation` that is not a `.txt` file at the root of a site gives null.
 */
export function keyFilePathOf(keyLocation: unknown, key?: string): string | null {
  if (keyLocation === undefined) return key === undefined ? null : `/${key}.txt`;
  if (typeof keyLocation !== 'string') return null;
  if (keyLocation.startsWith('/')) return KEY_FILE_PATH.test(keyLocation) ? keyLocation : null;
  const url = URL.parse(keyLocation);
  if (url === null || !isHttpUrl(keyLocation) || url.search !== '' || url.hash !== '') return null;
  return KEY_FILE_PATH.test(url.pathname) ? url.pathname : null;
}

/** What one key cannot say alone: IndexNow needs the fixed origin its URLs are on. */
export function crossCheck(config: SiteConfig): string | null {
  const indexnow = config.indexnow;
  if (indexnow === null) return null;
  if (config.origin === null) {
    return 'indexnow: needs origin (IndexNow submits the URLs of one fixed host; set origin: https://www.example.com, or --origin)';
  }
  const location = indexnow.keyLocation;
  if (location !== undefined && !location.startsWith('/')) {
    const path = keyFilePathOf(location);
    if (path === null || `${config.origin}${path}` !== new URL(location).href) {
      return `indexnow: keyLocation ${location} is not on the origin ${config.origin}`;
    }
  }
  return null;
}

/**
 * `contentUsage`: one value for every document (`train-ai=n`), or a mapping from URL path
 * prefixes to values (the longest prefix that a document's URL starts with wins), or null.
 */
export function checkContentUsage(raw: unknown): Checked {
  if (raw === null) return { ok: true, value: null };
  if (typeof raw === 'string') {
    const problem = checkContentUsageValue(raw).error;
    return problem === null ? { ok: true, value: raw } : fail(`the value ${problem}`);
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return fail('must be a value such as train-ai=n, or a mapping of URL path prefixes to values');
  }
  for (const [prefix, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!prefix.startsWith('/') || /[\s?#]/.test(prefix)) {
      return fail(`"${prefix}" is not a URL path prefix such as /blog/`);
    }
    if (typeof value !== 'string') return fail(`the value for ${prefix} must be text`);
    const problem = checkContentUsageValue(value).error;
    if (problem !== null) return fail(`the value for ${prefix} ${problem}`);
  }
  return { ok: true, value: raw };
}

/** What a checked `contentUsage` says about terms the vocabulary does not define. */
export function contentUsageNotes(value: unknown): UsageProblem[] {
  if (value === null) return [];
  const values =
    typeof value === 'string' ? [value] : Object.values(value as Record<string, string>);
  return values.flatMap((v) => checkContentUsageValue(v).notes);
}

/** `robotsPurposes: { ai-training: disallow, search: allow }`: known purposes only. */
export function checkRobotsPurposes(raw: unknown): Checked {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return fail(
      'must be a mapping of purposes to allow or disallow, such as ai-training: disallow',
    );
  }
  for (const [purpose, decision] of Object.entries(raw as Record<string, unknown>)) {
    if (!CRAWLER_PURPOSES.includes(purpose as CrawlerPurpose)) {
      return fail(`unknown purpose "${purpose}" (one of ${CRAWLER_PURPOSES.join(', ')})`);
    }
    if (decision !== 'allow' && decision !== 'disallow') {
      return fail(`${purpose} must be allow or disallow`);
    }
  }
  return { ok: true, value: raw };
}

/** The robots.txt usage fields, by the names the configuration writes them with. */
const USAGE_FIELDS = { contentUsage: 'content-usage', contentSignal: 'content-signal' } as const;

/**
 * `robotsUsage`: lines for the `User-agent: *` group, each
 * `{ field: content-usage | content-signal, value, path? }`, or in YAML's short form
 * `{ contentUsage: train-ai=n, path: /blog/ }` / `{ contentSignal: search=yes, ai-train=no }`.
 */
export function checkRobotsUsage(raw: unknown): Checked {
  if (!Array.isArray(raw)) return fail('must be a list of { contentUsage | contentSignal, path? }');
  const lines: { field: string; value: string; path?: string }[] = [];
  for (const entry of raw) {
    const line = usageLine(entry);
    if (typeof line === 'string') return fail(line);
    lines.push(line);
  }
  return { ok: true, value: lines };
}

function usageLine(entry: unknown): { field: string; value: string; path?: string } | string {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return 'each entry must be { contentUsage: value } or { contentSignal: value }, with an optional path';
  }
  const e = entry as Record<string, unknown>;
  let field = e['field'];
  let value = e['value'];
  for (const [name, spelled] of Object.entries(USAGE_FIELDS)) {
    if (e[name] !== undefined) {
      if (field !== undefined) return 'each entry names one field';
      field = spelled;
      value = e[name];
    }
  }
  const allowed = new Set(['field', 'value', 'path', ...Object.keys(USAGE_FIELDS)]);
  const unknown = Object.keys(e).find((key) => !allowed.has(key));
  if (unknown !== undefined) return `unknown key "${unknown}" in a usage entry`;
  if (field !== 'content-usage' && field !== 'content-signal') {
    return 'field must be content-usage or content-signal';
  }
  if (typeof value !== 'string' || !/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value)) {
    return `${field}: the value must be printable text without a line break`;
  }
  if (value.includes('#'))
    return `${field}: the value may not contain "#" (a comment in robots.txt)`;
  // As formatRobots writes them: a known term with a value it does not take, or a legacy
  // term, would be refused there; unknown terms pass (the vocabulary is still moving).
  const problem = parseUsageStatement(field, value).problems.find((p) => p.severity !== 'info');
  if (problem !== undefined) return `${field}: ${problem.message}`;
  const path = e['path'];
  if (path === undefined || path === null) return { field, value };
  if (typeof path !== 'string' || !/^\/[\x21-\x7e]*$/.test(path) || path.includes('#')) {
    return `${field}: path must be a URL path such as /blog/`;
  }
  return { field, value, path };
}

function isHttpUrl(raw: unknown): boolean {
  if (typeof raw !== 'string') return false;
  const url = URL.parse(raw);
  return (
    url !== null &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === ''
  );
}
