import type { Diagnostic, Severity } from '../../shared/diagnostic.ts';
import { errorMessage } from '../../shared/error-message.ts';
import { isValidUserAgent, productToken } from '../internal/user-agent.ts';
import {
  CRAWLER_PURPOSES,
  type CrawlerPurpose,
  type CrawlerRegistry,
  type CrawlerVerification,
  type KnownCrawler,
} from './crawler-registry.ts';
import { jsonElementLines, jsonErrorOffset } from './internal/json-positions.ts';

/** What {@link parseCrawlerRegistry} read: the usable crawlers, and what was wrong. */
export interface CrawlerRegistryReading {
  readonly registry: CrawlerRegistry;
  /** In entry order. Entries with an `error` were left out of `registry`. */
  readonly diagnostics: readonly Diagnostic[];
}

const KNOWN_FIELDS = new Set([
  'token',
  'operator',
  'purpose',
  'description',
  'honoursRobotsTxt',
  'honoursCrawlDelay',
  'fetches',
  'documentation',
  'verify',
  'fallback',
  'ignoresGlobalGroup',
  'notes',
  'source',
  'checked',
]);

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Entries read from one registry: a hundred times the bundled one. Each costs a parse and up
 * to a diagnostic per field, so a registry of a million entries took gigabytes; the rest is
 * left out with one `too-many-crawlers` error.
 */
export const MAX_REGISTRY_CRAWLERS = 10_000;

/**
 * Reads a crawler registry: the JSON text of a file such as the bundled
 * `known-crawlers.json`, or a value already parsed. Total: any input gives a registry and
 * diagnostics, never a throw. An entry with a missing or wrong `token`, `operator` or
 * `purpose`, or a field of the wrong type, is left out with an `error` naming the entry and
 * the field; a later entry with the same token (case-insensitive) is left out too. Other
 * missing fields get a default with a `warning` (`honoursRobotsTxt`, `honoursCrawlDelay`:
 * null; `fetches`: true; `verify`: none; texts and URLs: empty; `checked`: the registry's
 * date), as do unknown fields (a misspelt `honorsRobotsTxt` would otherwise go unseen) and
 * tokens that are not product tokens (letters, `-`, `_`), which robots.txt cannot name whole.
 * Lines are those of the entries when the input is text, else 1.
 *
 * @example
 * ```ts
 * const { registry, diagnostics } = parseCrawlerRegistry(
 *   '{"checked":"2026-11-24","crawlers":[{"token":"ExampleBot","operator":"Example","purpose":"seo"}]}',
 * );
 * registry.crawlers[0]?.token; // 'ExampleBot'
 * diagnostics.map((d) => d.code); // ['field-defaulted', ...]: description, documentation, ...
 * ```
 */
export function parseCrawlerRegistry(input: unknown): CrawlerRegistryReading {
  const diagnostics: Diagnostic[] = [];
  const report = (severity: Severity, line: number, code: string, message: string) => {
    diagnostics.push({ code, severity, message, line, column: 1 });
  };
  let value = input;
  let lines: number[] = [];
  if (typeof input === 'string') {
    const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    try {
      value = JSON.parse(text) as unknown;
    } catch (error) {
      const { line, column, reason } = jsonErrorPlace(text, error);
      diagnostics.push({
        code: 'invalid-json',
        severity: 'error',
        message: `not valid JSON: ${reason}`,
        line,
        column,
      });
      return { registry: { checked: '', crawlers: [] }, diagnostics };
    }
    lines = jsonElementLines(text, 'crawlers');
  }
  if (!isRecord(value) || !Array.isArray(value['crawlers'])) {
    report(
      'error',
      1,
      'invalid-registry',
      'a crawler registry is an object with a "crawlers" array: {"checked": "YYYY-MM-DD", "crawlers": [...]}',
    );
    return { registry: { checked: '', crawlers: [] }, diagnostics };
  }
  let checked = '';
  if (isDate(value['checked'])) checked = value['checked'];
  else {
    report(
      'warning',
      1,
      'field-defaulted',
      `the registry's "checked" is ${value['checked'] === undefined ? 'missing' : 'not a YYYY-MM-DD date'}; it is read as undated`,
    );
  }
  for (const key of Object.keys(value)) {
    if (key !== 'checked' && key !== 'crawlers')
      report('warning', 1, 'unknown-field', `unknown top-level field "${key}"; ignored`);
  }

  const crawlers: KnownCrawler[] = [];
  const seen = new Map<string, string>();
  const entries = value['crawlers'] as unknown[];
  entries.slice(0, MAX_REGISTRY_CRAWLERS).forEach((entry: unknown, index: number) => {
    const line = lines[index] ?? 1;
    const entryReport = (severity: Severity, code: string, message: string) =>
      report(severity, line, code, `crawlers[${index}]${nameOf(entry)}: ${message}`);
    const crawler = readEntry(entry, checked, entryReport);
    if (crawler === null) return;
    const key = crawler.token.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      entryReport(
        'error',
        'duplicate-token',
        `token "${crawler.token}" is already used by ${first} (tokens are compared case-insensitively); this entry is left out`,
      );
      return;
    }
    seen.set(key, `crawlers[${index}]`);
    crawlers.push(crawler);
  });
  if (entries.length > MAX_REGISTRY_CRAWLERS) {
    report(
      'error',
      lines[MAX_REGISTRY_CRAWLERS] ?? 1,
      'too-many-crawlers',
      `${entries.length} crawlers: only the first ${MAX_REGISTRY_CRAWLERS} are read`,
    );
  }
  return { registry: { checked, crawlers }, diagnostics };
}

type EntryReport = (severity: Severity, code: string, message: string) => void;

/** One entry checked field by field; null when it must be left out (an error was reported). */
function readEntry(
  entry: unknown,
  registryChecked: string,
  report: EntryReport,
): KnownCrawler | null {
  if (!isRecord(entry)) {
    report(
      'error',
      'invalid-entry',
      'an entry is an object with "token", "operator" and "purpose"; left out',
    );
    return null;
  }
  let ok = true;
  const invalid = (field: string, what: string) => {
    report('error', 'invalid-field', `"${field}" ${what}; the entry is left out`);
    ok = false;
  };
  const defaulted = (field: string, to: string) => {
    report('warning', 'field-defaulted', `"${field}" is missing; read as ${to}`);
  };
  const required = (field: string): string => {
    const v = entry[field];
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (v === undefined) {
      report('error', 'missing-field', `"${field}" is missing; the entry is left out`);
      ok = false;
    } else invalid(field, 'must be a non-empty string');
    return '';
  };
  const text = (field: string, url: boolean): string => {
    const v = entry[field];
    if (v === undefined) {
      defaulted(field, 'empty');
      return '';
    }
    if (typeof v !== 'string') invalid(field, 'must be a string');
    else if (url && v !== '' && !isHttpUrl(v)) invalid(field, 'must be an absolute http(s) URL');
    else return v;
    return '';
  };
  const tristate = (field: string): boolean | null => {
    const v = entry[field];
    if (v === undefined) {
      defaulted(field, 'null (not documented)');
      return null;
    }
    if (v === null || typeof v === 'boolean') return v;
    invalid(field, 'must be true, false or null');
    return null;
  };

  const token = required('token');
  // A control character would reach terminals and the comments of written files as it is.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(token)) invalid('token', 'has a control character');
  const operator = required('operator');
  const purposeValue = entry['purpose'];
  let purpose: CrawlerPurpose = 'other';
  if (purposeValue === undefined) {
    report('error', 'missing-field', '"purpose" is missing; the entry is left out');
    ok = false;
  } else if (CRAWLER_PURPOSES.includes(purposeValue as CrawlerPurpose)) {
    purpose = purposeValue as CrawlerPurpose;
  } else invalid('purpose', `must be one of ${CRAWLER_PURPOSES.join(', ')}`);
  const description = text('description', false);
  const honoursRobotsTxt = tristate('honoursRobotsTxt');
  const honoursCrawlDelay = tristate('honoursCrawlDelay');
  let fetches = true;
  if (entry['fetches'] === undefined) defaulted('fetches', 'true');
  else if (typeof entry['fetches'] === 'boolean') fetches = entry['fetches'];
  else invalid('fetches', 'must be true or false');
  const documentation = text('documentation', true);
  const source = text('source', true);
  let checked = registryChecked;
  if (entry['checked'] === undefined)
    defaulted('checked', `the registry's date (${registryChecked || 'undated'})`);
  else if (isDate(entry['checked'])) checked = entry['checked'];
  else invalid('checked', 'must be a YYYY-MM-DD date');
  const verify = readVerify(entry['verify'], invalid);
  let fallback: string[] | undefined;
  if (entry['fallback'] !== undefined) {
    const v = entry['fallback'];
    if (Array.isArray(v) && v.every((t) => typeof t === 'string' && isValidUserAgent(t)))
      fallback = v;
    else invalid('fallback', 'must be a list of product tokens (letters, "-" and "_")');
  }
  let ignoresGlobalGroup: boolean | undefined;
  if (entry['ignoresGlobalGroup'] !== undefined) {
    if (typeof entry['ignoresGlobalGroup'] === 'boolean')
      ignoresGlobalGroup = entry['ignoresGlobalGroup'];
    else invalid('ignoresGlobalGroup', 'must be true or false');
  }
  let notes: string | undefined;
  if (entry['notes'] !== undefined) {
    if (typeof entry['notes'] === 'string') notes = entry['notes'];
    else invalid('notes', 'must be a string');
  }
  for (const key of Object.keys(entry)) {
    if (!KNOWN_FIELDS.has(key))
      report('warning', 'unknown-field', `unknown field "${key}"; ignored`);
  }
  if (!ok) return null;
  if (!isValidUserAgent(token)) {
    report(
      'warning',
      'invalid-token',
      `token "${token}" is not a product token (letters, "-" and "_" only): a robots.txt line naming it is read as "${productToken(token)}", so no group can name this crawler whole`,
    );
  }
  return {
    token,
    operator,
    purpose,
    description,
    honoursRobotsTxt,
    honoursCrawlDelay,
    fetches,
    documentation,
    verify,
    ...(fallback === undefined ? {} : { fallback }),
    ...(ignoresGlobalGroup === undefined ? {} : { ignoresGlobalGroup }),
    ...(notes === undefined ? {} : { notes }),
    source,
    checked,
  };
}

function readVerify(
  value: unknown,
  invalid: (field: string, what: string) => void,
): CrawlerVerification {
  if (value === undefined) return {};
  if (!isRecord(value)) {
    invalid('verify', 'must be an object with "reverseDns" and/or "ipRanges"');
    return {};
  }
  const verify: { reverseDns?: readonly string[]; ipRanges?: string } = {};
  const { reverseDns, ipRanges } = value;
  if (reverseDns !== undefined) {
    if (Array.isArray(reverseDns) && reverseDns.every((d) => typeof d === 'string' && d !== '')) {
      verify.reverseDns = reverseDns;
    } else invalid('verify.reverseDns', 'must be a list of domain names');
  }
  if (ipRanges !== undefined) {
    if (typeof ipRanges === 'string' && isHttpUrl(ipRanges)) verify.ipRanges = ipRanges;
    else invalid('verify.ipRanges', 'must be an absolute http(s) URL');
  }
  for (const key of Object.keys(value)) {
    if (key !== 'reverseDns' && key !== 'ipRanges')
      invalid(`verify.${key}`, 'is not a known field');
  }
  return verify;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isDate(value: unknown): value is string {
  return typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value));
}

function isHttpUrl(value: string): boolean {
  const url = URL.parse(value);
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:');
}

/** ` ("GPTBot")` when the entry has a readable token, for messages. */
function nameOf(entry: unknown): string {
  const token = isRecord(entry) ? entry['token'] : undefined;
  return typeof token === 'string' && token !== '' ? ` ("${token.slice(0, 60)}")` : '';
}

/** Where JSON.parse stopped, found by a scan of our own (V8's messages do not say). */
function jsonErrorPlace(
  text: string,
  error: unknown,
): { line: number; column: number; reason: string } {
  const reason = errorMessage(error);
  const offset = Math.max(0, jsonErrorOffset(text));
  const before = text.slice(0, offset);
  const line = before.split(/\r\n|\r|\n/).length;
  const column = offset - Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'));
  return { line, column, reason: `${reason.split('\n')[0]}` };
}
