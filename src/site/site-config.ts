import type { CrawlerPurpose } from '../robots/agents/crawler-registry.ts';
import type { PurposeDecision } from '../robots/agents/purpose-policy.ts';
import type { RobotsPolicyGroup } from '../robots/index.ts';
import type { Diagnostic } from '../shared/diagnostic.ts';
import { WaymarkError } from '../shared/waymark-error.ts';
import { MAX_SITEMAP_BYTES, MAX_SITEMAP_URLS } from '../sitemap/index.ts';
import { fromYaml } from './internal/config-yaml-forms.ts';
import {
  type Checked,
  checkContentUsage,
  checkIndexNow,
  checkRobotsPurposes,
  checkRobotsUsage,
  contentUsageNotes,
  crossCheck,
} from './internal/crawler-config-checks.ts';
import { readYaml, type YamlPosition } from './internal/read-yaml.ts';
import { fixedOrigin } from './internal/request-origin.ts';

/** One robots.txt rule, as `formatRobots` takes it. */
export interface SiteRobotsRule {
  readonly directive: 'allow' | 'disallow';
  readonly pattern: string;
}

/** An extra reserved path: `'drafts/'` (a prefix, ends with `/`) or `'cart.html'` (exact). */
export type ReservedPathInput = string | { readonly path: string; readonly publish?: boolean };

/**
 * IndexNow for a site: its key file is served, and changed public pages are submitted. Needs
 * `origin` (IndexNow submits the URLs of one fixed host).
 */
export interface SiteIndexNowConfig {
  /** The key: 8 to 128 characters of `a-z`, `A-Z`, `0-9` and `-`. */
  readonly key: string;
  /** Where to submit (default `https://api.indexnow.org/indexnow`, shared by every engine). */
  readonly endpoint?: string;
  /**
   * Where the key file is served: a `.txt` file at the root of the site, as a path
   * (`/indexnow-key.txt`) or a URL on `origin`. Default `/<key>.txt`.
   */
  readonly keyLocation?: string;
  /** How long changes are collected before they are submitted together (default 5,000 ms). */
  readonly debounceMs?: number;
  /** The least time between the starts of two submissions (default 10,000 ms). */
  readonly minIntervalMs?: number;
}

/**
 * The `Content-Usage` header of documents without their own (sidecar `contentUsage`): one
 * value for all (`train-ai=n`), or values by URL path prefix (`{ '/': 'train-ai=n',
 * '/blog/': 'train-ai=y' }`: the longest prefix of the document's URL wins).
 */
export type SiteContentUsage = string | Readonly<Record<string, string>>;

/**
 * A robots.txt usage line (draft-ietf-aipref-attach's `Content-Usage`, Cloudflare's
 * `Content-Signal`), written in every group whose crawlers may fetch anything.
 */
export interface SiteRobotsUsage {
  readonly field: 'content-usage' | 'content-signal';
  /** `train-ai=n` (Content-Usage), `search=yes, ai-train=no` (Content-Signal). */
  readonly value: string;
  /** The URL path the line is limited to (default: the whole site). */
  readonly path?: string;
}

/** How `waymark/site` publishes a content root. Every key has a default. */
export interface SiteConfig {
  /** Prefix of the admin area (default `admin/`): reserved, and never written to robots.txt. */
  readonly adminPath: string;
  /** `never` (default): `/about/team`; `always`: `/about/team/`. */
  readonly trailingSlash: 'never' | 'always';
  /** More reserved paths; strings are published as `Disallow` lines unless `publish: false`. */
  readonly reserved: readonly ReservedPathInput[];
  /** More rules for the `User-agent: *` group, before its closing `Allow: /`. */
  readonly robotsRules: readonly SiteRobotsRule[];
  /** More groups, written after the `User-agent: *` group. */
  readonly robotsGroups: readonly RobotsPolicyGroup[];
  /**
   * The public origin every absolute URL is built on (`https://www.example.com`), whatever
   * the request's `Host` says. Default null: the request's origin (see `trustProxy`).
   */
  readonly origin: string | null;
  /**
   * Without `origin`: build absolute URLs from the last (nearest proxy's) `Forwarded` /
   * `X-Forwarded-*` value (default false: `Host` only).
   */
  readonly trustProxy: boolean;
  /** URLs per sitemap before it splits into parts and an index (default and maximum 50,000). */
  readonly maxUrls: number;
  /** Bytes per sitemap before it splits (default and maximum 50 MiB). */
  readonly maxBytes: number;
  /** IndexNow (default null: off). */
  readonly indexnow: SiteIndexNowConfig | null;
  /** The `Content-Usage` header of documents without a sidecar value (default null: none). */
  readonly contentUsage: SiteContentUsage | null;
  /**
   * robots.txt by crawler purpose (`{ 'ai-training': 'disallow', search: 'allow' }`),
   * expanded from the known-crawler registry into groups after the configured ones.
   */
  readonly robotsPurposes: Readonly<Partial<Record<CrawlerPurpose, PurposeDecision>>>;
  /**
   * robots.txt usage lines, for the `User-agent: *` group and every other group whose
   * crawlers may fetch anything (a crawler reads only the group that names it).
   */
  readonly robotsUsage: readonly SiteRobotsUsage[];
}

/** The defaults every missing key takes. */
export const DEFAULT_SITE_CONFIG: SiteConfig = {
  adminPath: 'admin/',
  trailingSlash: 'never',
  reserved: [],
  robotsRules: [],
  robotsGroups: [],
  origin: null,
  trustProxy: false,
  maxUrls: MAX_SITEMAP_URLS,
  maxBytes: MAX_SITEMAP_BYTES,
  indexnow: null,
  contentUsage: null,
  robotsPurposes: {},
  robotsUsage: [],
};

/** What {@link parseSiteConfig} read: the keys it understood, and what it did not. */
export interface SiteConfigReading {
  readonly config: Partial<SiteConfig>;
  readonly diagnostics: readonly Diagnostic[];
}

const KEYS = new Set(Object.keys(DEFAULT_SITE_CONFIG));
/** A configuration lists rules and paths, not data: larger files are refused unread. */
export const MAX_SITE_CONFIG_BYTES = 1024 * 1024;
/** yaml's own default: enough for anchors reused across groups, not for an alias bomb. */
const MAX_CONFIG_ALIASES = 100;

/**
 * Reads a `waymark.site.yaml`. Total: a key with the wrong type is left out (its default
 * applies) and reported at its line; unknown keys are warnings; broken YAML (an alias
 * without its anchor and an alias bomb included) is an error diagnostic and an empty
 * config. Rules may be written `{ disallow: /x/ }` or `{ directive, pattern }`. A reading
 * with any error is not fit to serve: the site handler keeps its last good configuration
 * (or answers 503) rather than apply what is left.
 *
 * @example
 * ```ts
 * const { config, diagnostics } = parseSiteConfig('adminPath: cms/\ntrailingSlash: always\n');
 * createSiteHandler({ root: 'content', config });
 * ```
 */
export function parseSiteConfig(text: string): SiteConfigReading {
  const diagnostics: Diagnostic[] = [];
  const reading = readYaml(text, { schema: 'core', maxAliasCount: MAX_CONFIG_ALIASES });
  for (const problem of reading.problems) {
    diagnostics.push(diag('config-yaml', 'error', problem.message, problem));
  }
  if (reading.problems.length > 0) return { config: {}, diagnostics };
  const value = reading.value;
  if (value === null || value === undefined) return { config: {}, diagnostics };
  if (typeof value !== 'object' || Array.isArray(value)) {
    diagnostics.push(diag('config-shape', 'error', 'the configuration is not a mapping'));
    return { config: {}, diagnostics };
  }
  const config: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    const at = reading.keyPositions.get(key);
    if (!KEYS.has(key)) {
      diagnostics.push(
        diag('config-unknown-key', 'warning', `unknown key "${key}" is ignored`, at),
      );
      continue;
    }
    const checked = checkKey(key as keyof SiteConfig, fromYaml(key, raw));
    if (checked.ok) config[key] = checked.value;
    else diagnostics.push(diag('config-invalid', 'error', `${key}: ${checked.message}`, at));
    // Terms the usage vocabulary does not know: told, still sent as written.
    if (checked.ok && key === 'contentUsage') {
      for (const note of contentUsageNotes(checked.value)) {
        diagnostics.push(diag(note.code, note.severity, `contentUsage: ${note.message}`, at));
      }
    }
  }
  return { config: config as Partial<SiteConfig>, diagnostics };
}

/**
 * The full configuration from defaults, a file's keys and the caller's options (later
 * wins). Throws a `WaymarkError` `invalid-argument` naming the key when a value is wrong.
 *
 * @example
 * ```ts
 * resolveSiteConfig({ trailingSlash: 'always' }).adminPath; // 'admin/'
 * ```
 */
export function resolveSiteConfig(...layers: readonly Partial<SiteConfig>[]): SiteConfig {
  const merged: Record<string, unknown> = { ...DEFAULT_SITE_CONFIG };
  for (const layer of layers) {
    for (const [key, raw] of Object.entries(layer)) {
      if (raw === undefined) continue;
      if (!KEYS.has(key)) throw invalid(`unknown key "${key}"`);
      const checked = checkKey(key as keyof SiteConfig, raw);
      if (!checked.ok) throw invalid(`${key}: ${checked.message}`);
      merged[key] = checked.value;
    }
  }
  const config = merged as unknown as SiteConfig;
  const problem = crossCheck(config);
  if (problem !== null) throw invalid(problem);
  return config;
}

function checkKey(key: keyof SiteConfig, raw: unknown): Checked {
  const fail = (message: string): Checked => ({ ok: false, message });
  switch (key) {
    case 'adminPath':
      return typeof raw === 'string' && /^\/?[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*\/?$/.test(raw)
        ? { ok: true, value: raw }
        : fail('must be a path such as admin/ (letters, digits, ".", "_", "~", "-")');
    case 'trailingSlash':
      return raw === 'never' || raw === 'always'
        ? { ok: true, value: raw }
        : fail('must be "never" or "always"');
    case 'trustProxy':
      return typeof raw === 'boolean' ? { ok: true, value: raw } : fail('must be true or false');
    case 'origin': {
      if (raw === null) return { ok: true, value: null };
      const origin = typeof raw === 'string' ? fixedOrigin(raw) : null;
      return origin === null
        ? fail(
            'must be null or an http(s) origin such as https://www.example.com (no path, query, user or password)',
          )
        : { ok: true, value: origin };
    }
    case 'maxUrls':
      return limit(raw, MAX_SITEMAP_URLS);
    case 'maxBytes':
      return limit(raw, MAX_SITEMAP_BYTES);
    case 'reserved':
      return Array.isArray(raw) &&
        raw.every(
          (r) =>
            typeof r === 'string' ||
            (typeof r === 'object' &&
              r !== null &&
              typeof r.path === 'string' &&
              (r.publish === undefined || typeof r.publish === 'boolean')),
        )
        ? { ok: true, value: raw }
        : fail('must be a list of paths or { path, publish } entries');
    case 'robotsRules':
      return Array.isArray(raw) && raw.every(isRule)
        ? { ok: true, value: raw }
        : fail('must be a list of { directive: allow|disallow, pattern } rules');
    case 'robotsGroups':
      return Array.isArray(raw) &&
        raw.every(
          (g) =>
            typeof g === 'object' &&
            g !== null &&
            Array.isArray(g.userAgents) &&
            g.userAgents.every((a: unknown) => typeof a === 'string') &&
            Array.isArray(g.rules) &&
            g.rules.every(isRule),
        )
        ? { ok: true, value: raw }
        : fail('must be a list of { userAgents: [...], rules: [...] } groups');
    case 'indexnow':
      return checkIndexNow(raw);
    case 'contentUsage':
      return checkContentUsage(raw);
    case 'robotsPurposes':
      return checkRobotsPurposes(raw);
    case 'robotsUsage':
      return checkRobotsUsage(raw);
  }
}

function limit(raw: unknown, max: number): Checked {
  return typeof raw === 'number' && Number.isInteger(raw) && raw >= 1 && raw <= max
    ? { ok: true, value: raw }
    : { ok: false, message: `must be a whole number from 1 to ${max}` };
}

function isRule(rule: unknown): boolean {
  if (typeof rule !== 'object' || rule === null) return false;
  const r = rule as Record<string, unknown>;
  return (
    (r['directive'] === 'allow' || r['directive'] === 'disallow') &&
    typeof r['pattern'] === 'string'
  );
}

function diag(
  code: string,
  severity: Diagnostic['severity'],
  message: string,
  at?: YamlPosition,
): Diagnostic {
  return { code, severity, message, line: at?.line ?? 1, column: at?.column ?? 1 };
}

function invalid(message: string): WaymarkError {
  return new WaymarkError('invalid-argument', `invalid site configuration: ${message}`);
}
