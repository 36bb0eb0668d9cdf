// Minimal types for the peers that ship none, covering only what the benchmarks call.

declare module 'robots-txt-parse' {
  import type { Readable } from 'node:stream';

  export interface ParsedRobots {
    groups: { agents: string[]; rules: { rule: string; path: string }[] }[];
    extensions: { extension: string; value: string }[];
  }

  /** Streaming parser: resolves once `content` has ended. */
  export default function parse(content: Readable): Promise<ParsedRobots>;
}

declare module 'robots-txt-guard' {
  import type { ParsedRobots } from 'robots-txt-parse';

  export interface Guard {
    /** `path` is the URL's path and query; the user agent comes first. */
    isAllowed(userAgent: string, path: string): boolean;
    isDisallowAll(userAgent: string): boolean;
    isIndexable(userAgent: string, path: string): boolean;
  }

  export default function makeGuard(config: Pick<ParsedRobots, 'groups'>): Guard;
}

// robots-parser ships types, but as `export default` from a CommonJS file, which under
// `nodenext` types the default import as the module object rather than the function.
declare module 'robots-parser' {
  export interface Robot {
    isAllowed(url: string, ua?: string): boolean | undefined;
    isDisallowed(url: string, ua?: string): boolean | undefined;
    getMatchingLineNumber(url: string, ua?: string): number;
    getCrawlDelay(ua?: string): number | undefined;
    getSitemaps(): string[];
    getPreferredHost(): string | null;
  }

  export default function robotsParser(url: string, robotstxt: string): Robot;
}

declare module 'sitemap-generator' {
  export interface SitemapGeneratorOptions {
    filepath?: string | null;
    maxDepth?: number;
    maxConcurrency?: number;
    interval?: number;
    lastMod?: boolean;
    stripQuerystring?: boolean;
    userAgent?: string;
  }

  export interface Generator {
    start(): void;
    stop(): void;
    on(event: 'add' | 'ignore', handler: (url: string) => void): void;
    on(
      event: 'error',
      handler: (error: { code: number; message: string; url: string }) => void,
    ): void;
    on(event: 'done', handler: () => void): void;
  }

  /** CommonJS `module.exports = function`: the default import under Node's ESM. */
  export default function SitemapGenerator(
    url: string,
    options?: SitemapGeneratorOptions,
  ): Generator;
}
