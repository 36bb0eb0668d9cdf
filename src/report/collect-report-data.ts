// Gathers what the crawl report shows from a crawl state: one pass over its results (read as
// iterated), its robots.txt outcomes and its sitemap files. Memory is one row per URL, which
// the page holds anyway.
import type { CrawlResult, CrawlState, HostRobotsOutcome } from '../crawl/crawl-state.ts';
import { storedSharedOptions } from '../crawl/internal/crawl-settings.ts';
import type { CrawlSummary } from '../crawl/types.ts';
import { productToken, type RobotsTxt, robotsForStatus } from '../robots/index.ts';
import { WaymarkError } from '../shared/waymark-error.ts';
import {
  REPORT_DATA_VERSION,
  type ReportData,
  type ReportPageRow,
  type ReportRobots,
  type ReportRule,
  type ReportSitemap,
} from './report-data.ts';

/** What the run that made the report knows beyond its state. */
export interface ReportRunFacts {
  /** The summary of the crawl run that just ended (gives its time and rate). */
  readonly summary?: CrawlSummary;
  /** Clock for `generatedAt`, epoch milliseconds. Default `Date.now`. */
  readonly now?: () => number;
  /** `waymark 0.1.0`: what made the report. */
  readonly generator?: string;
}

/** Bytes of a robots.txt shown in the report: what the crawl reads of one (RFC 9309). */
const MAX_ROBOTS_TEXT_BYTES = 500 * 1024;

/**
 * The report's data for the crawl in `state`: everything {@link ReportData} describes.
 * Throws a `WaymarkError` (`invalid-argument`) when the state holds no crawl.
 *
 * @example
 * ```ts
 * const state = openSqliteCrawlState('crawl.db', { resume: true });
 * try {
 *   const data = await collectReportData(state);
 *   console.log(data.crawl.listed, 'pages listed of', data.pages.length);
 * } finally {
 *   await state.close();
 * }
 * ```
 */
export async function collectReportData(
  state: CrawlState,
  run: ReportRunFacts = {},
): Promise<ReportData> {
  const record = await state.crawl();
  if (record === null) {
    throw new WaymarkError('invalid-argument', `no crawl in ${state.location}`);
  }
  const shared = storedSharedOptions(record.options, state.location);
  const robotsAgent = productToken(shared.userAgent);
  const unreachableAllowed = shared.robotsError === 'allow';
  const outcomes = await state.robotsOutcomes();
  const policies = new Map(outcomes.map((robots) => [robots.origin, policyOf(robots)]));
  const robots = outcomes.map((outcome) => reportRobots(outcome, unreachableAllowed));

  const rows: (ReportPageRow & unknown[])[] = [];
  const finders: (string | null)[] = [];
  const index = new Map<string, number>();
  const skipped: Record<string, number> = {};
  let fetched = 0;
  let listed = 0;
  let errors = 0;
  let startFailed = false;
  for await (const result of state.results()) {
    index.set(result.url, rows.length);
    finders.push(result.via);
    const rule =
      result.reason === 'robots-disallowed'
        ? decidingRule(result.url, policies, robotsAgent)
        : null;
    rows.push(pageRow(result, rule));
    if (result.status !== null || result.outcome === 'error') fetched++;
    if (result.outcome === 'listed') listed++;
    if (result.outcome === 'error') errors++;
    if (result.outcome === 'skipped' && result.reason !== null) {
      skipped[result.reason] = (skipped[result.reason] ?? 0) + 1;
    }
    if (result.url === record.start && result.outcome === 'error') startFailed = true;
  }
  // `via` as a row index where the finder is a row (most are), which also saves its bytes.
  finders.forEach((via, i) => {
    const row = rows[i] as unknown[];
    row[6] = via === null ? null : via === 'sitemap' ? 'sitemap' : (index.get(via) ?? null);
  });

  const { summary } = run;
  const queued = (await state.counts()).queued;
  const startOrigin = new URL(record.start).origin;
  const startRobots = outcomes.find((robots) => robots.origin === startOrigin);
  const now = run.now ?? Date.now;
  return {
    version: REPORT_DATA_VERSION,
    generatedAt: new Date(now()).toISOString(),
    generator: run.generator ?? 'waymark',
    crawl: {
      start: record.start,
      userAgent: shared.userAgent,
      robotsAgent,
      createdAt: isoOrNull(record.createdAt),
      finishedAt: isoOrNull(record.finishedAt),
      durationMs: summary?.durationMs ?? null,
      pagesPerSecond: summary === undefined ? null : roundRate(summary.rate),
      stoppedBy: summary?.stoppedBy ?? (record.finishedAt === null ? 'unfinished' : null),
      notFetched: queued,
      depthCut: record.depthCut,
      respectRobots: shared.respectRobots,
      fetched,
      listed,
      skipped,
      errors,
      unreachable:
        summary === undefined
          ? unreachableFromState(startRobots, shared.respectRobots && !unreachableAllowed, {
              startFailed: startFailed && listed === 0,
              start: record.start,
            })
          : (summary.unreachable?.message ?? null),
    },
    robots,
    sitemaps: (await state.sitemapFiles()).map(
      (file): ReportSitemap => ({
        url: file.url,
        parent: file.parent,
        status: file.status,
        kind: file.kind,
        entries: file.entries,
        skipped: file.skipped,
        diagnostics: file.diagnostics.map(({ code, severity, message, line, column }) => ({
          code,
          severity,
          message,
          line,
          column,
        })),
        diagnosticsDropped: file.diagnosticsDropped,
        fetchedAt: isoOrNull(file.readAt),
      }),
    ),
    pages: rows,
  };
}

function pageRow(result: CrawlResult, rule: ReportRule | null): ReportPageRow & unknown[] {
  const facts = result.facts ?? null;
  return [
    result.url,
    result.status,
    result.outcome,
    result.reason,
    detailOf(result),
    result.depth,
    null,
    result.linked ? 1 : 0,
    result.sitemaps ?? 0,
    result.sitemapLastmod ?? null,
    facts?.lastModified ?? null,
    facts?.contentType ?? null,
    facts?.ms ?? null,
    facts?.title ?? null,
    result.inlinks ?? 0,
    rule,
    result.outcome === 'listed' ? result.lastmod : null,
  ];
}

/**
 * A skipped page's detail is plain text, or JSON `{"detail", "feeds"}` when it names feeds;
 * a listed page's data is its sitemap extras, not a detail.
 */
function detailOf(result: CrawlResult): string | null {
  if (result.outcome === 'listed' || result.data === null) return null;
  if (result.outcome === 'skipped' && result.data.startsWith('{')) {
    try {
      const detail = (JSON.parse(result.data) as { detail?: unknown }).detail;
      return typeof detail === 'string' ? detail : null;
    } catch {
      return result.data;
    }
  }
  return result.data;
}

function policyOf(robots: HostRobotsOutcome): RobotsTxt {
  return robotsForStatus(robots.status, robots.body ?? '', { url: robots.url });
}

/** The rule that disallowed `url`, as the engine explains it; null when none is a rule. */
function decidingRule(
  url: string,
  policies: ReadonlyMap<string, RobotsTxt>,
  agent: string,
): ReportRule | null {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return null;
  }
  const rule = policies.get(origin)?.explain(url, agent).rule ?? null;
  return rule === null ? null : [rule.directive, rule.pattern, rule.line];
}

function reportRobots(outcome: HostRobotsOutcome, unreachableAllowed: boolean): ReportRobots {
  const { origin, status, detail, url, body } = outcome;
  const source = robotsForStatus(status, '', { url }).source;
  const text =
    body === null
      ? null
      : new TextDecoder().decode(body.subarray(0, Math.min(body.length, MAX_ROBOTS_TEXT_BYTES)));
  return {
    origin,
    url,
    status: status === 'network-error' ? null : status,
    source,
    detail: detail ?? (status === 'network-error' ? 'network error' : null),
    text,
    unreachableAllowed: source === 'unreachable' && unreachableAllowed,
  };
}

/** As the crawl's summary says it (see `SiteUnreachable`), from what the state holds. */
function unreachableFromState(
  robots: HostRobotsOutcome | undefined,
  obeyed: boolean,
  start: { readonly startFailed: boolean; readonly start: string },
): string | null {
  if (robots !== undefined && obeyed) {
    const source = robotsForStatus(robots.status, '', { url: robots.url }).source;
    if (source === 'unreachable') {
      return robots.status === 'network-error'
        ? `site unreachable: ${robots.detail ?? 'network error'} (${robots.url}); RFC 9309 says crawl nothing`
        : `robots.txt answered ${robots.status}: RFC 9309 says crawl nothing (${robots.url})`;
    }
  }
  return start.startFailed ? `site unreachable: the start page failed (${start.start})` : null;
}

function isoOrNull(epochMs: number | null): string | null {
  return epochMs === null || !Number.isFinite(epochMs) ? null : new Date(epochMs).toISOString();
}

function roundRate(rate: number): number | null {
  return Number.isFinite(rate) ? Math.round(rate * 10) / 10 : null;
}
