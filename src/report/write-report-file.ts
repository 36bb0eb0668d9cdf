import type { CrawlState } from '../crawl/crawl-state.ts';
import { writeFileAtomically } from '../shared/files/atomic-file.ts';
import { collectReportData, type ReportRunFacts } from './collect-report-data.ts';
import { renderReportHtml } from './render-report-html.ts';

/**
 * Writes the crawl report of `state` to `path` as one self-contained HTML file, atomically:
 * a failure leaves whatever was at `path` as it was. Returns the size written, in bytes.
 *
 * @example
 * ```ts
 * const state = openSqliteCrawlState('crawl.db', { resume: true, readOnly: true });
 * try {
 *   await writeReportFile(state, 'report.html');
 * } finally {
 *   await state.close();
 * }
 * ```
 */
export async function writeReportFile(
  state: CrawlState,
  path: string,
  run: ReportRunFacts = {},
): Promise<number> {
  const html = Buffer.from(renderReportHtml(await collectReportData(state, run)), 'utf8');
  await writeFileAtomically(path, [html]);
  return html.length;
}
