// Everything the sections show that takes a pass over the rows, computed once when the page
// opens, and the overview's one-line verdicts drawn from it.
import type { ReportData } from '../report-data.ts';
import { formatCount } from './format.ts';
import { checkLastmods, type LastmodFindings } from './lastmod-checks.ts';
import { COL } from './page-columns.ts';
import { type RedirectChain, redirectChains } from './redirect-chains.ts';
import { checkSitemaps, type SitemapFindings } from './sitemap-checks.ts';

export interface ReportAnalysis {
  readonly sitemap: SitemapFindings;
  readonly lastmod: LastmodFindings;
  readonly chains: readonly RedirectChain[];
  /** Rows left out because robots.txt disallowed them or could not be read. */
  readonly blocked: readonly number[];
  readonly clientErrors: number;
  readonly serverErrors: number;
  /** Rows whose fetch failed (outcome `error`). */
  readonly fetchErrors: number;
}

export function analyseReport(data: ReportData): ReportAnalysis {
  const blocked: number[] = [];
  let clientErrors = 0;
  let serverErrors = 0;
  let fetchErrors = 0;
  data.pages.forEach((row, index) => {
    const reason = row[COL.reason];
    if (reason === 'robots-disallowed' || reason === 'robots-unreachable') blocked.push(index);
    const status = row[COL.status];
    if (status !== null && status >= 400 && status < 500) clientErrors++;
    if (status !== null && status >= 500) serverErrors++;
    if (row[COL.outcome] === 'error') fetchErrors++;
  });
  return {
    sitemap: checkSitemaps(data),
    lastmod: checkLastmods(data),
    chains: redirectChains(data.pages),
    blocked,
    clientErrors,
    serverErrors,
    fetchErrors,
  };
}

export type VerdictLevel = 'ok' | 'problem' | 'note';

export interface Verdict {
  /** The id of the section or list that shows the details. */
  readonly target: string;
  readonly level: VerdictLevel;
  readonly text: string;
  readonly count: number;
}

type Line = readonly [
  target: string,
  count: number,
  problem: string,
  ok: string,
  level?: VerdictLevel,
];

/** One line per problem class, in the order of the sections; `count` 0 reads as fine. */
export function verdicts(data: ReportData, analysis: ReportAnalysis): Verdict[] {
  const { sitemap, lastmod } = analysis;
  const unreachable = data.robots.filter(
    (r) => r.source === 'unreachable' && !r.unreachableAllowed,
  );
  const errorDiagnostics = sitemap.withDiagnostics.filter((index) =>
    data.sitemaps[index]?.diagnostics.some((d) => d.severity === 'error'),
  ).length;
  const lines: Line[] = [
    [
      'overview',
      data.crawl.unreachable === null ? 0 : 1,
      `The site could not be crawled: ${data.crawl.unreachable}`,
      'The site could be crawled.',
    ],
    [
      'robots',
      unreachable.length,
      'Origins whose robots.txt was unreachable, so nothing there was fetched: {n}',
      'robots.txt was readable or absent everywhere.',
    ],
    ['indexability', analysis.clientErrors, 'Pages answering 4xx: {n}', 'No page answered 4xx.'],
    ['indexability', analysis.serverErrors, 'Pages answering 5xx: {n}', 'No page answered 5xx.'],
    [
      'indexability',
      analysis.fetchErrors,
      'Pages that could not be fetched (network errors): {n}',
      'Every request got an answer.',
    ],
    [
      'sitemap-files',
      data.sitemaps.length === 0 ? 1 : 0,
      'No sitemap was found (robots.txt names none, and none was given)',
      'Sitemaps were found.',
    ],
    [
      'sitemap-not-indexable',
      sitemap.listedNotIndexable.length,
      'URLs in the sitemap that are not indexable: {n}',
      'Every URL in the sitemap is indexable (or redirects, below).',
    ],
    [
      'sitemap-redirect-4xx',
      sitemap.listedRedirectOr4xx.length,
      'URLs in the sitemap that redirect or answer 4xx: {n}',
      'No URL in the sitemap redirects or answers 4xx.',
    ],
    [
      'sitemap-orphans',
      sitemap.orphans.length,
      'Orphans (in the sitemap, linked from no crawled page): {n}',
      'Every URL in the sitemap is linked.',
    ],
    [
      'sitemap-missing',
      sitemap.missingFromSitemap.length,
      'Indexable pages missing from the sitemap: {n}',
      'Every indexable page is in the sitemap.',
    ],
    [
      'sitemap-several',
      sitemap.inSeveralSitemaps.length,
      'URLs in more than one sitemap file: {n}',
      'No URL is in more than one sitemap file.',
    ],
    [
      'sitemap-limits',
      sitemap.overLimits.length,
      'Sitemap files over the protocol limits (50,000 URLs, 50 MiB): {n}',
      'Every sitemap file is within the protocol limits.',
    ],
    [
      'sitemap-diagnostics',
      errorDiagnostics,
      'Sitemap files with reading errors: {n}',
      'No sitemap file has reading errors.',
    ],
    [
      'lastmod-identical',
      lastmod.allIdentical ? 1 : 0,
      `Every lastmod is the same value (${lastmod.commonest?.value ?? ''})`,
      'lastmod values differ between URLs.',
    ],
    [
      'lastmod-generation',
      lastmod.generationTime.length,
      'lastmod values equal to the time the sitemap was fetched: {n}',
      'No lastmod equals the time the sitemap was fetched.',
    ],
    [
      'lastmod-future',
      lastmod.future.length,
      'lastmod values in the future: {n}',
      'No lastmod is in the future.',
    ],
    [
      'lastmod-older',
      lastmod.olderThanLastModified.length,
      'lastmod values older than the page’s Last-Modified: {n}',
      'No lastmod is older than its page’s Last-Modified.',
    ],
    [
      'lastmod-invalid',
      lastmod.invalid.length,
      'lastmod values that are not W3C Datetime: {n}',
      'Every lastmod is a W3C Datetime.',
    ],
    [
      'lastmod-date-only',
      lastmod.dateOnly.length,
      'lastmod values that are dates without a time: {n}',
      'Every lastmod has a time.',
      'note',
    ],
    [
      'robots-blocked',
      analysis.blocked.length,
      'URLs blocked by robots.txt: {n}',
      'No URL was blocked by robots.txt.',
      'note',
    ],
    [
      'structure-redirects',
      analysis.chains.length,
      'URLs redirecting through more than one hop: {n}',
      'No redirect takes more than one hop.',
    ],
  ];
  return lines.map(([target, count, problem, ok, level = 'problem']) => ({
    target,
    count,
    level: count === 0 ? 'ok' : level,
    text: count === 0 ? ok : problem.replace('{n}', formatCount(count)),
  }));
}
