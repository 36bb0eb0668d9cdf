import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { formatRobots } from '../../robots/index.ts';
import type { Diagnostic } from '../../shared/diagnostic.ts';
import { WaymarkError } from '../../shared/waymark-error.ts';
import { PageMetaCache, type RevalidateMode, SITE_CONFIG_FILE } from '../page-meta-cache.ts';
import { ReservedPaths } from '../reserved-paths.ts';
import { parseSiteConfig, resolveSiteConfig, type SiteConfig } from '../site-config.ts';
import { LastModified } from './last-modified.ts';
import { planRobots, type RobotsPlan } from './robots-body.ts';
import { buildSiteIndex, type SiteDiagnostic, type SiteIndex } from './site-index.ts';
import { buildSitemapLines, type RestMemo, type SitemapLines } from './sitemap-lines.ts';

/** Everything derived from the disk and the configuration, rebuilt only when either changes. */
export interface SiteState {
  /** Grows with every rebuild; part of every ETag. */
  readonly serial: number;
  readonly root: string;
  readonly config: SiteConfig;
  readonly reserved: ReservedPaths;
  readonly robots: RobotsPlan;
  readonly index: SiteIndex;
  readonly lines: SitemapLines;
  /** Epoch ms: when this state was built. */
  readonly modifiedAt: number;
  /** The `Last-Modified` of robots.txt and the sitemaps in this state. */
  readonly lastModified: LastModified;
  readonly diagnostics: readonly SiteDiagnostic[];
}

export interface SiteStateOptions {
  readonly root: string;
  readonly config?: Partial<SiteConfig>;
  /** A config file; undefined: `waymark.site.yaml` in the root, followed live; null: none. */
  readonly configFile?: string | null;
  readonly revalidate?: RevalidateMode;
  readonly now?: () => number;
}

/** Keeps the current {@link SiteState} in step with the page cache. */
export class SiteStateKeeper {
  readonly #cache: PageMetaCache;
  readonly #root: string;
  readonly #options: Partial<SiteConfig>;
  /** The config file followed through the cache, or null when read once (or none). */
  readonly #liveConfig: boolean;
  #fileConfig: { config: Partial<SiteConfig>; diagnostics: readonly Diagnostic[] };
  #configStamp: string | null | undefined = undefined;
  #config: {
    config: SiteConfig;
    reserved: ReservedPaths;
    robots: RobotsPlan;
    problem: string | null;
  };
  #state: SiteState | null = null;
  #generation = -1;
  readonly #memo: RestMemo = new Map();
  readonly #now: () => number;

  constructor(options: SiteStateOptions) {
    this.#root = resolve(options.root);
    this.#options = options.config ?? {};
    this.#now = options.now ?? Date.now;
    const defaultFile = join(this.#root, SITE_CONFIG_FILE);
    const file = options.configFile === undefined ? defaultFile : options.configFile;
    this.#liveConfig = file !== null && resolve(file) === defaultFile;
    this.#fileConfig =
      file === null
        ? { config: {}, diagnostics: [] }
        : readConfigFile(file, options.configFile !== undefined);
    // Options and file errors are the caller's to fix before serving anything.
    this.#config = configure(this.#fileConfig.config, this.#options);
    this.#cache = new PageMetaCache({
      root: options.root,
      ...(options.revalidate === undefined ? {} : { revalidate: options.revalidate }),
    });
  }

  /** The state as the disk is now (see `PageMetaCache.snapshot`). */
  async current(): Promise<SiteState> {
    const snapshot = await this.#cache.snapshot();
    if (this.#liveConfig && snapshot.configStamp !== this.#configStamp) {
      const first = this.#configStamp === undefined;
      this.#configStamp = snapshot.configStamp;
      if (!first) this.#reloadConfig();
    }
    if (this.#state !== null && snapshot.generation === this.#generation) return this.#state;
    const { config, reserved, robots } = this.#config;
    const index = buildSiteIndex(snapshot.pages, config, reserved);
    const lines = buildSitemapLines(index.listed, this.#memo);
    const previous = this.#state;
    // The time of the change as this process saw it, never a file's mtime: a removal or a
    // rename changes no listed mtime, a restart may follow changes made while stopped, and
    // mtimes can lie in the future.
    const modifiedAt = this.#now();
    const lastModified = new LastModified(modifiedAt, previous?.lastModified ?? null);
    const configDiagnostics: SiteDiagnostic[] = this.#fileConfig.diagnostics.map((d) => ({
      path: SITE_CONFIG_FILE,
      ...d,
    }));
    if (this.#config.problem !== null) {
      configDiagnostics.push({
        path: SITE_CONFIG_FILE,
        code: 'config-rejected',
        severity: 'error',
        message: `${this.#config.problem}; the previous configuration stays in force`,
        line: 1,
        column: 1,
      });
    }
    for (const pattern of robots.dropped) {
      configDiagnostics.push({
        path: SITE_CONFIG_FILE,
        code: 'robots-names-admin',
        severity: 'warning',
        message: `robots rule or agent ${JSON.stringify(pattern)} names the admin path and is not published`,
        line: 1,
        column: 1,
      });
    }
    this.#generation = snapshot.generation;
    this.#state = {
      serial: (previous?.serial ?? 0) + 1,
      root: this.#root,
      config,
      reserved,
      robots,
      index,
      lines,
      modifiedAt,
      lastModified,
      diagnostics: [...configDiagnostics, ...index.diagnostics],
    };
    return this.#state;
  }

  async close(): Promise<void> {
    await this.#cache.close();
  }

  #reloadConfig(): void {
    const file = join(this.#root, SITE_CONFIG_FILE);
    this.#fileConfig = readConfigFile(file, false);
    try {
      this.#config = configure(this.#fileConfig.config, this.#options);
    } catch (error) {
      this.#config = { ...this.#config, problem: (error as Error).message };
    }
    // The config is part of every derived value: force a rebuild.
    this.#generation = -1;
  }
}

function configure(
  file: Partial<SiteConfig>,
  options: Partial<SiteConfig>,
): { config: SiteConfig; reserved: ReservedPaths; robots: RobotsPlan; problem: null } {
  const config = resolveSiteConfig(file, options);
  const reserved = new ReservedPaths(config);
  const robots = planRobots(config, reserved);
  // Refuse configured rules the writer would refuse, now rather than on every request.
  formatRobots({ groups: robots.groups });
  return { config, reserved, robots, problem: null };
}

function readConfigFile(
  path: string,
  required: boolean,
): { config: Partial<SiteConfig>; diagnostics: readonly Diagnostic[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (!required && (error as NodeJS.ErrnoException).code === 'ENOENT')
      return { config: {}, diagnostics: [] };
    throw new WaymarkError(
      'io-failed',
      `cannot read the site configuration ${path}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return parseSiteConfig(text);
}
