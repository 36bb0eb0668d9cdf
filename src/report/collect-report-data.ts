// Gathers what the crawl report shows from a crawl state: one pass over its results (read as
// iterated), its robots.txt outcomes and its sitemap files. Memory is one row per URL, which
// the page holds anyway.
import type { CrawlResult, CrawlState, HostRobotsOutcome } from '../crawl/crawl-state.ts';
import { storedSharedOptions } from '../crawl/internal/crawl-settings.ts';
import { CrawlTally, siteUnreachable } from '../crawl/internal/crawl-tally.ts';
import { pageDetail } from '../crawl/internal/feed-candidates.ts';
import type { RobotsUnreachable } from '../crawl/internal/robots-gate.ts';
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
 * const state = openSqliteCrawlState('crawl.db', { resume: true, readOnly: true });
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
  // The same counts as the crawl's summary, by the crawl's own code.
  const counted = new CrawlTally(record.start);
  for await (const result of state.results()) {
    counted.add(result);
    index.set(result.url, rows.length);
    finders.push(result.via);
    const rule =
      result.reason === 'robots-disallowed'
        ? decidingRule(result.url, policies, robotsAgent)
        : null;
    rows.push(pageRow(result, rule));
  }
  const totals = counted.totals;
  // `via` as a row index where the finder is a row (most are), which also saves its bytes.
  finders.forEach((via, i) => {
    const row = rows[i] as unknown[];
    row[6] = via === null ? null : via === 'sitemap' ? 'sitemap' : (index.get(via) ?? null);
  });

  const { summary } = run;
  const queued = (await state.counts()).queued;
  const now = run.now ?? Date.now;
  // The run's own verdict when there was a run; else the same verdict, from the state.
  const unreachable =
    summary !== undefined
      ? summary.unreachable
      : siteUnreachable(
          {
            start: record.start,
            shared,
            robotsUnreachable: unreachableRobots(record.start, outcomes),
          },
          totals,
        );
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
      fetched: totals.fetched,
      listed: totals.listed,
      skipped: totals.skipped,
      errors: totals.errors,
      unreachable: unreachable?.message ?? null,
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
    pageDetail(result),
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

/** How the start origin's robots.txt failed (as the crawl's gate records it), or null. */
function unreachableRobots(
  start: string,
  outcomes: readonly HostRobotsOutcome[],
): RobotsUnreachable | null {
  const origin = new URL(start).origin;
  const robots = outcomes.find((outcome) => outcome.origin === origin);
  if (robots === undefined) return null;
  const { source } = robotsForStatus(robots.status, '', { url: robots.url });
  return source === 'unreachable' ? { status: robots.status, detail: robots.detail } : null;
}

function isoOrNull(epochMs: number | null): string | null {
  return epochMs === null || !Number.isFinite(epochMs) ? null : new Date(epochMs).toISOString();
}

function roundRate(rate: number): number | null {
  return Number.isFinite(rate) ? Math.round(rate * 10) / 10 : null;
}
