import { join, resolve } from 'node:path';
import { formatRobots } from '../../robots/index.ts';
import { WaymarkError } from '../../shared/waymark-error.ts';
import { PageMetaCache, type RevalidateMode, SITE_CONFIG_FILE } from '../page-meta-cache.ts';
import { ReservedPaths } from '../reserved-paths.ts';
import {
  MAX_SITE_CONFIG_BYTES,
  parseSiteConfig,
  resolveSiteConfig,
  type SiteConfig,
} from '../site-config.ts';
import { DiagnosticsReporter, type SiteDiagnosticsReport } from './diagnostics-reporter.ts';
import { LastModified } from './last-modified.ts';
import { fileStamp } from './page-record.ts';
import { readSmallFileSync } from './read-small-file.ts';
import { planRobots, type RobotsPlan } from './robots-body.ts';
import { buildSiteIndex, type SiteDiagnostic, type SiteIndex } from './site-index.ts';
import {
  buildSitemapLines,
  newRestMemo,
  type RestMemo,
  type SitemapLines,
} from './sitemap-lines.ts';

/** Everything derived from the disk and the configuration, rebuilt only when either changes. */
export interface SiteState {
  /** Grows with every rebuild; part of every ETag. */
  readonly serial: number;
  readonly root: string;
  readonly config: SiteConfig;
  readonly reserved: ReservedPaths;
  readonly robots: RobotsPlan;
  readonly index: SiteIndex;
  /** The path of every document in the root, whatever its access. */
  readonly documents: ReadonlySet<string>;
  readonly lines: SitemapLines;
  /** Epoch ms: when this state was built. */
  readonly modifiedAt: number;
  /** The `Last-Modified` of robots.txt and the sitemaps in this state. */
  readonly lastModified: LastModified;
  readonly diagnostics: readonly SiteDiagnostic[];
  /**
   * Why nothing may be served (the root's `waymark.site.yaml` is broken and there is no
   * good configuration before it to keep), or null.
   */
  readonly unavailable: string | null;
}

export interface SiteStateOptions {
  readonly root: string;
  readonly config?: Partial<SiteConfig>;
  /** A config file; undefined: `waymark.site.yaml` in the root, followed live; null: none. */
  readonly configFile?: string | null;
  readonly revalidate?: RevalidateMode;
  readonly now?: () => number;
  /** Told what changed in the problems whenever a rebuild changes them (see DiagnosticsReporter). */
  readonly onDiagnostics?: (report: SiteDiagnosticsReport) => void;
}

/** A configuration with what is derived from it once. */
interface Configured {
  readonly config: SiteConfig;
  readonly reserved: ReservedPaths;
  readonly robots: RobotsPlan;
}

/** One reading of a config file: its keys (null when it must not be applied) and problems. */
interface ConfigReading {
  readonly config: Partial<SiteConfig> | null;
  readonly diagnostics: readonly SiteDiagnostic[];
  readonly stamp: string | null;
  readonly missing: boolean;
  /** The file was read and says nothing: empty, or only comments. */
  readonly empty: boolean;
}

/**
 * Keeps the current {@link SiteState} in step with the page cache and the configuration.
 *
 * A configuration file is applied whole or not at all: one wrong key could otherwise drop a
 * `Disallow` rule or move the admin path back to its default, publishing what it hid. The
 * root's `waymark.site.yaml` is followed live: a broken edit keeps the last good
 * configuration in force; broken from the start, there is none, and every response is 503
 * (robots.txt included, which crawlers read as "crawl nothing") until it is fixed. A file
 * that comes to say nothing (empty: a save in place empties it first) keeps the last
 * configuration too; removing it goes back to the defaults. A `configFile` read once must be
 * right: the handler is not created otherwise.
 */
export class SiteStateKeeper {
  readonly #cache: PageMetaCache;
  readonly #options: Partial<SiteConfig>;
  /** The root's config file when it is followed live, else null. */
  readonly #liveFile: string | null;
  /** The name diagnostics about the configuration carry. */
  readonly #configName: string;
  /** The options alone: what the index is built with while nothing is served. */
  readonly #optionsOnly: Configured;
  #good: Configured | null;
  #configProblems: readonly SiteDiagnostic[] = [];
  #configStamp: string | null = null;
  /** Grows whenever the configuration file is read again: the version of its problems. */
  #configReadings = 0;
  readonly #reporter: DiagnosticsReporter | null;
  #state: SiteState | null = null;
  #generation = -1;
  readonly #memo: RestMemo = newRestMemo();
  readonly #now: () => number;

  constructor(options: SiteStateOptions) {
    const root = resolve(options.root);
    this.#options = options.config ?? {};
    this.#now = options.now ?? Date.now;
    this.#reporter =
      options.onDiagnostics === undefined ? null : new DiagnosticsReporter(options.onDiagnostics);
    const defaultFile = join(root, SITE_CONFIG_FILE);
    const file = options.configFile === undefined ? defaultFile : options.configFile;
    const live = file !== null && resolve(file) === defaultFile;
    this.#liveFile = live ? defaultFile : null;
    this.#configName = file === null || live ? SITE_CONFIG_FILE : file;
    // Wrong options are the caller's to fix before serving anything.
    this.#optionsOnly = configure({}, this.#options);
    this.#good = this.#optionsOnly;
    if (file !== null) {
      const reading = readConfigFile(file, this.#configName);
      if (reading.missing && options.configFile !== undefined) {
        throw new WaymarkError(
          'io-failed',
          `cannot read the site configuration ${file}: it does not exist`,
        );
      }
      if (live) {
        this.#good = null;
        this.#configStamp = reading.stamp;
        this.#apply(reading);
      } else {
        this.#good = configureOnce(file, reading, this.#options);
        this.#configProblems = reading.diagnostics;
      }
    }
    this.#cache = new PageMetaCache({
      root: options.root,
      ...(options.revalidate === undefined ? {} : { revalidate: options.revalidate }),
    });
  }

  /** The state as the disk is now (see `PageMetaCache.snapshot`). */
  async current(): Promise<SiteState> {
    const snapshot = await this.#cache.snapshot();
    if (this.#liveFile !== null && snapshot.configStamp !== this.#configStamp) {
      this.#configStamp = snapshot.configStamp;
      this.#configReadings++;
      this.#apply(readConfigFile(this.#liveFile, this.#configName), true);
      // The config is part of every derived value: force a rebuild.
      this.#generation = -1;
    }
    if (this.#state !== null && snapshot.generation === this.#generation) return this.#state;
    const { config, reserved, robots } = this.#good ?? this.#optionsOnly;
    const index = buildSiteIndex(snapshot.pages, config, reserved);
    const lines = buildSitemapLines(index.listed, this.#memo);
    const previous = this.#state;
    // The time of the change as this process saw it, never a file's mtime: a removal or a
    // rename changes no listed mtime, a restart may follow changes made while stopped, and
    // mtimes can lie in the future.
    const modifiedAt = this.#now();
    const lastModified = new LastModified(modifiedAt, previous?.lastModified ?? null);
    const configDiagnostics: SiteDiagnostic[] = [...this.#configProblems];
    for (const pattern of robots.dropped) {
      configDiagnostics.push({
        path: SITE_CONFIG_FILE,
        file: this.#configName,
        code: 'robots-names-admin',
        severity: 'warning',
        message: `robots rule or agent ${JSON.stringify(pattern)} could give the admin path away and is not published`,
        line: 1,
        column: 1,
      });
    }
    this.#generation = snapshot.generation;
    const pages = snapshot.pages;
    let documents: ReadonlySet<string> | null = null;
    this.#state = {
      serial: (previous?.serial ?? 0) + 1,
      root: this.#cache.root,
      config,
      reserved,
      robots,
      index,
      // Made when first asked for (only IndexNow does): 50,000 keys are not free.
      get documents(): ReadonlySet<string> {
        documents ??= new Set(pages.map((page) => page.path));
        return documents;
      },
      lines,
      modifiedAt,
      lastModified,
      diagnostics: [...configDiagnostics, ...index.diagnostics],
      unavailable:
        this.#good === null ? `the site configuration ${this.#configName} is broken` : null,
    };
    if (this.#reporter !== null) {
      const pages = new Map(snapshot.pages.map((page) => [page.path, page]));
      const readings = this.#configReadings;
      this.#reporter.update(this.#state.diagnostics, (d) =>
        d.path === SITE_CONFIG_FILE ? readings : pages.get(d.path),
      );
    }
    return this.#state;
  }

  /** The configuration in force (null: none, every response is 503). */
  get config(): SiteConfig | null {
    return this.#good?.config ?? null;
  }

  /** How disk changes are found now (`stat` after watching failed). */
  get mode(): RevalidateMode {
    return this.#cache.mode;
  }

  async close(): Promise<void> {
    await this.#cache.close();
  }

  /** Applies a reading of the live file, or keeps what is in force (none: fail closed). */
  /** Applies a reading of the live file; `again` for every reading after the first. */
  #apply(reading: ConfigReading, again = false): void {
    let problem: string | null = null;
    if (reading.config === null) {
      problem = 'the file has errors';
    } else if (again && reading.empty && this.#good !== null) {
      problem =
        'the file says nothing (empty, or only comments, as while it is saved in place): remove it to go back to the defaults';
    } else {
      try {
        this.#good = configure(reading.config, this.#options);
        this.#configProblems = reading.diagnostics;
        return;
      } catch (error) {
        problem = (error as Error).message;
      }
    }
    const outcome =
      this.#good === null
        ? 'nothing is served (503) until it is fixed'
        : 'the previous configuration stays in force';
    this.#configProblems = [
      ...reading.diagnostics,
      {
        path: SITE_CONFIG_FILE,
        file: this.#configName,
        code: 'config-rejected',
        severity: 'error',
        message: `${problem}; ${outcome}`,
        line: 1,
        column: 1,
      },
    ];
  }
}

function configure(file: Partial<SiteConfig>, options: Partial<SiteConfig>): Configured {
  const config = resolveSiteConfig(file, options);
  const reserved = new ReservedPaths(config);
  const robots = planRobots(config, reserved);
  // Refuse configured rules the writer would refuse, now rather than on every request.
  formatRobots({ groups: robots.groups });
  return { config, reserved, robots };
}

/** A file read once: applied whole, or the handler is not made (with file and line). */
function configureOnce(
  file: string,
  reading: ConfigReading,
  options: Partial<SiteConfig>,
): Configured {
  const error = reading.diagnostics.find((d) => d.severity === 'error');
  if (error?.code === 'config-unreadable') {
    throw new WaymarkError(
      'io-failed',
      `cannot read the site configuration ${file}: ${error.message}`,
    );
  }
  if (reading.config === null || error !== undefined) {
    const where = error === undefined ? file : `${file}:${error.line}:${error.column}`;
    throw new WaymarkError(
      'invalid-argument',
      `invalid site configuration ${where}: ${error?.message ?? 'it cannot be read'}`,
    );
  }
  return configure(reading.config, options);
}

/** Reads a config file within its size limit; never throws. */
function readConfigFile(path: string, name: string): ConfigReading {
  const file = readSmallFileSync(path, MAX_SITE_CONFIG_BYTES, true);
  const at = { path: SITE_CONFIG_FILE, file: name, line: 1, column: 1 };
  if (!file.ok) {
    if (file.reason === 'missing')
      return { config: {}, diagnostics: [], stamp: null, missing: true, empty: false };
    const diagnostic: SiteDiagnostic = {
      ...at,
      code:
        file.reason === 'too-large'
          ? 'config-too-large'
          : file.reason === 'not-a-file'
            ? 'config-not-a-file'
            : 'config-unreadable',
      severity: 'error',
      message: `the site configuration cannot be used: ${file.message}`,
    };
    const stamp = file.stat === null ? null : fileStamp(file.stat);
    return { config: null, diagnostics: [diagnostic], stamp, missing: false, empty: false };
  }
  const { config, diagnostics } = parseSiteConfig(file.text);
  const broken = diagnostics.some((d) => d.severity === 'error');
  return {
    config: broken ? null : config,
    diagnostics: diagnostics.map((d) => ({ ...at, ...d })),
    stamp: fileStamp(file.stat),
    missing: false,
    empty: saysNothing(file.text),
  };
}

/**
 * The text has no content: blank lines, comments and YAML document markers only. (`{}` says
 * something: no keys, on purpose.)
 */
function saysNothing(text: string): boolean {
  return text.split(/\r\n|\r|\n/).every((line) => {
    const trimmed = line.trim();
    return trimmed === '' || trimmed.startsWith('#') || trimmed === '---' || trimmed === '...';
  });
}
