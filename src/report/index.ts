/**
 * The crawl audit report: one self-contained HTML file (inline CSS, script and data, no
 * network request of any kind) that shows what a crawl found, for people: indexability,
 * the sitemap against the crawl, lastmod sanity, robots.txt with a live tester, the site's
 * structure, and every URL in a searchable table.
 *
 * @example
 * ```ts
 * import { openSqliteCrawlState } from 'waymark/crawl';
 * import { writeReportFile } from 'waymark/report';
 * const state = openSqliteCrawlState('crawl.db', { resume: true, readOnly: true });
 * try {
 *   await writeReportFile(state, 'report.html');
 * } finally {
 *   await state.close();
 * }
 * ```
 *
 * @module
 */
export type { ReportRunFacts } from './collect-report-data.ts';
export { collectReportData } from './collect-report-data.ts';
export { renderReportHtml } from './render-report-html.ts';
export type {
  ReportData,
  ReportDiagnostic,
  ReportOutcome,
  ReportPageRow,
  ReportRobots,
  ReportRule,
  ReportSitemap,
} from './report-data.ts';
export { PAGE_COLUMNS, REPORT_DATA_VERSION } from './report-data.ts';
export { writeReportFile } from './write-report-file.ts';
