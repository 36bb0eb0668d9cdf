import { parseRobots } from '../robots/index.ts';
import { WaymarkError } from '../shared/waymark-error.ts';
import { keyFilePathOf } from './internal/crawler-config-checks.ts';
import type { ReservedPathInput, SiteIndexNowConfig } from './site-config.ts';

/** One reserved path: nothing on the content root may take it. */
export interface ReservedPath {
  /** `/robots.txt` (exact) or `/api/` (a prefix: the path and everything under it). */
  readonly path: string;
  readonly prefix: boolean;
  /** robots.txt may name it as a `Disallow` line. */
  readonly publish: boolean;
  /** Why it is reserved, for messages. */
  readonly reason: string;
}

/** The paths waymark answers itself: the admin area or another reserved entry may not overlap them. */
const SERVED = ['/robots.txt', '/sitemap.xml', '/sitemap_index.xml', '/sitemaps/', '/id/'];

/** The paths waymark itself answers or keeps for the application, in robots.txt order. */
const BUILT_IN: readonly ReservedPath[] = [
  { path: '/robots.txt', prefix: false, publish: false, reason: 'robots.txt' },
  { path: '/sitemap.xml', prefix: false, publish: false, reason: 'the sitemap' },
  { path: '/sitemap_index.xml', prefix: false, publish: false, reason: 'the sitemap index' },
  { path: '/sitemaps/', prefix: true, publish: false, reason: 'sitemap parts' },
  // Crawlers must reach /id/ pages (the sitemap lists them), so they are never disallowed.
  { path: '/id/', prefix: true, publish: false, reason: 'pages by id' },
  { path: '/login/', prefix: true, publish: true, reason: 'the login pages' },
  { path: '/api/', prefix: true, publish: true, reason: 'the API' },
  { path: '/builtin/', prefix: true, publish: true, reason: 'built-in pages' },
];

/** Longer patterns are not published at all: the check below grows with length times wildcards. */
const MAX_CHECKED_PATTERN = 256;

/**
 * The single source of truth for reserved paths: alias validation, sitemap exclusion and
 * robots.txt `Disallow` lines all ask it. The admin prefix is reserved and never
 * published; neither is any other entry that would give it away (see
 * {@link ReservedPaths.revealsAdmin}). The admin prefix and
 * configured entries may not overlap what waymark serves itself (robots.txt, the sitemaps,
 * `/id/`): the constructor throws a `WaymarkError` (`invalid-argument`) naming the key.
 *
 * @example
 * ```ts
 * const reserved = new ReservedPaths({ adminPath: 'cms/', reserved: ['drafts/'] });
 * reserved.match('/cms/users')?.reason; // 'the admin area'
 * reserved.disallowed(); // ['/login/', '/api/', '/builtin/', '/drafts/']
 * ```
 */
export class ReservedPaths {
  /** Every entry, built-ins first, then the admin prefix, then the configured ones. */
  readonly entries: readonly ReservedPath[];
  /** The URL path of the IndexNow key file (`/<key>.txt`), or null without IndexNow. */
  readonly indexNowKeyPath: string | null;
  /** The admin prefix as a path without its trailing slash (`/cms`), lower-cased. */
  readonly #adminMarker: string;
  /** Its path segments of three characters or more, lower-cased (`cms`). */
  readonly #adminWords: readonly string[];
  /** `[admin, neutral]` URL paths: the admin area, and one of the same shape sharing no character. */
  readonly #probes: readonly (readonly [string, string])[];

  constructor(config: {
    readonly adminPath: string;
    readonly reserved?: readonly ReservedPathInput[];
    /** With IndexNow, its key file is reserved too (exact, never published). */
    readonly indexnow?: SiteIndexNowConfig | null;
  }) {
    const admin = normalizePath(config.adminPath, true);
    this.#adminMarker = admin.path.replace(/\/$/, '').toLowerCase();
    this.#adminWords = this.#adminMarker.split('/').filter((word) => word.length >= 3);
    // '!' is never in an admin path (validated), so a pattern that matches the neutral
    // path as well as the admin one cannot hold any of the admin path's characters.
    const neutral = `${this.#adminMarker.replace(/[^/]/g, '!')}/`;
    this.#probes = [
      [`${this.#adminMarker}/`, neutral],
      [this.#adminMarker, neutral.slice(0, -1)],
    ];
    const entries: ReservedPath[] = [
      ...BUILT_IN,
      { path: admin.path, prefix: true, publish: false, reason: 'the admin area' },
    ];
    for (const input of config.reserved ?? []) {
      const raw = typeof input === 'string' ? input : input.path;
      const { path, prefix } = normalizePath(raw, false);
      const publish = typeof input === 'string' ? true : input.publish !== false;
      entries.push({ path, prefix, publish, reason: 'reserved by the configuration' });
    }
    // An admin area over /id/ would show in every sitemap URL; a reserved /sitemap.xml
    // would be disallowed by the robots.txt that names it.
    for (const entry of entries.slice(BUILT_IN.length)) {
      const served = SERVED.find((path) => overlaps(entry, path));
      if (served !== undefined) {
        const key = entry.reason === 'the admin area' ? 'adminPath' : 'reserved';
        throw new WaymarkError(
          'invalid-argument',
          `invalid site configuration: ${key}: ${entry.path} overlaps ${served}, which waymark serves`,
        );
      }
    }
    const keyFile =
      config.indexnow === undefined || config.indexnow === null
        ? null
        : keyFilePathOf(config.indexnow.keyLocation, config.indexnow.key);
    if (keyFile !== null) {
      // Checked against every other entry: a key file under the admin area or a reserved
      // path would be served where nothing may be.
      const taken = entries.find((entry) => overlaps(entry, keyFile.toLowerCase()));
      if (taken !== undefined) {
        throw new WaymarkError(
          'invalid-argument',
          `invalid site configuration: indexnow: the key file ${keyFile} overlaps ${taken.path} (${taken.reason})`,
        );
      }
      entries.push({
        path: keyFile,
        prefix: false,
        publish: false,
        reason: 'the IndexNow key file',
      });
    }
    this.entries = entries.map((entry) =>
      entry.publish && this.revealsAdmin(entry.path) ? { ...entry, publish: false } : entry,
    );
    this.indexNowKeyPath = keyFile;
  }

  /**
   * The entry that reserves `path` (a URL path such as `/api/x`), or null. Compared
   * without regard to case, and `/api` counts as `/api/`: a server that treats them alike
   * must not let a page shadow a reserved area.
   */
  match(path: string): ReservedPath | null {
    const lower = path.toLowerCase();
    for (const entry of this.entries) {
      const reserved = entry.path.toLowerCase();
      if (entry.prefix) {
        if (lower.startsWith(reserved) || `${lower}/` === reserved) return entry;
      } else if (lower === reserved || lower === `${reserved}/`) {
        return entry;
      }
    }
    return null;
  }

  /** The paths robots.txt disallows, in registry order (never the admin prefix). */
  disallowed(): string[] {
    return this.entries.filter((entry) => entry.publish).map((entry) => entry.path);
  }

  /** True when `text` names the admin prefix anywhere, in any case. */
  mentionsAdmin(text: string): boolean {
    return text.toLowerCase().includes(this.#adminMarker);
  }

  /**
   * True when publishing `pattern` as a robots.txt rule would give the admin path away.
   * Decided by the robots engine itself, not by looking for the literal path: the rule is
   * parsed and matched against URLs in the admin area (`/cms/`, `/cms`, and each with the
   * rest of the pattern after it, so `/c*s/users` is caught by `/cms/users`); it reveals
   * the path when it matches there but not at a neutral path of the same shape that shares
   * none of its characters (so `Disallow: /` and `/*.pdf` stay). The pattern is also tried
   * percent-decoded and lower-cased, as some crawlers and this server's own reserved-path
   * check read it (`/%63ms/`, `/CMS/`), and any literal mention of the path counts.
   *
   * @example
   * ```ts
   * const reserved = new ReservedPaths({ adminPath: 'cms/' });
   * reserved.revealsAdmin('/c*s/'); // true
   * reserved.revealsAdmin('/%63ms/'); // true
   * reserved.revealsAdmin('/'); // false
   * ```
   */
  revealsAdmin(pattern: string): boolean {
    if (pattern.length > MAX_CHECKED_PATTERN) return true;
    const decoded = decodeAscii(pattern);
    for (const variant of new Set([
      pattern,
      decoded,
      pattern.toLowerCase(),
      decoded.toLowerCase(),
    ])) {
      if (this.mentionsAdmin(variant)) return true;
      // Line breaks would make more than one rule; formatRobots refuses such patterns anyway.
      if (/[\r\n]/.test(variant)) continue;
      if (this.#matchesAdminOnly(variant)) return true;
    }
    return false;
  }

  /**
   * True when a user agent token names the admin path: it contains, in any case, one of
   * the admin path's segments of three characters or more (`CmsBot` for `cms/`).
   */
  agentNamesAdmin(agent: string): boolean {
    const lower = agent.toLowerCase();
    return this.#adminWords.some((word) => lower.includes(word));
  }

  #matchesAdminOnly(pattern: string): boolean {
    const robots = parseRobots(`User-agent: *\nDisallow: ${pattern}\n`);
    const blocks = (path: string): boolean => !robots.isAllowed(path, 'waymark');
    for (const [admin, neutral] of this.#probes) {
      for (const rest of rests(pattern, admin.length)) {
        if (blocks(admin + rest) && !blocks(neutral + rest)) return true;
      }
    }
    return false;
  }
}

/**
 * What may follow an admin URL for `pattern` to match below it: for each place where the
 * admin path could end inside the pattern, the rest of the pattern as literal text. The
 * admin path ends within its own length plus the pattern's wildcards (each literal
 * character of the pattern before that place stands for one of the path's).
 */
function rests(pattern: string, adminLength: number): Set<string> {
  const wildcards = pattern.split('*').length - 1;
  const last = Math.min(pattern.length, adminLength + wildcards);
  const found = new Set<string>(['']);
  for (let i = 0; i <= last; i++) {
    found.add(pattern.slice(i).replaceAll('*', '').replace(/\$$/, ''));
  }
  return found;
}

/** `%xx` escapes of printable ASCII decoded, as a decoding crawler would read them. */
function decodeAscii(pattern: string): string {
  return pattern.replace(/%([0-9A-Fa-f]{2})/g, (whole, hex: string) => {
    const code = Number.parseInt(hex, 16);
    return code > 0x20 && code < 0x7f ? String.fromCharCode(code) : whole;
  });
}

/** True when some request path falls under both `entry` and `served` (exact or prefix). */
function overlaps(entry: ReservedPath, served: string): boolean {
  const a = entry.path.toLowerCase();
  const bare = served.replace(/\/$/, '');
  if (a === bare || a === `${bare}/` || (served.endsWith('/') && a.startsWith(served))) return true;
  return entry.prefix && (served.startsWith(a) || `${served}/` === a);
}

/** `admin`, `/admin`, `/admin/` -> `/admin/`; `cart.html` -> `/cart.html` (exact). */
function normalizePath(raw: string, forcePrefix: boolean): { path: string; prefix: boolean } {
  const trimmed = raw.trim().replace(/^\/+/, '');
  const prefix = forcePrefix || trimmed.endsWith('/');
  const body = trimmed.replace(/\/+$/, '');
  return { path: `/${body}${prefix ? '/' : ''}`, prefix };
}
