import { createHash } from 'node:crypto';
import { escapeHtml } from '../shared/html/escape-html.ts';
import { REPORT_CSS, REPORT_SCRIPT } from './internal/report-assets.generated.ts';
import type { ReportData } from './report-data.ts';
import { siteName } from './site-name.ts';

const SCRIPT_DATA_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * The data as JSON that is safe inside `<script type="application/json">`: with every `<`
 * escaped, no `</script>` or `<!--` in a hostile URL or title can end the element.
 */
export function reportDataJson(data: ReportData): string {
  return JSON.stringify(data).replace(/[<\u2028\u2029]/g, (c) => SCRIPT_DATA_ESCAPES[c] ?? c);
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The Content-Security-Policy of a report: nothing may load; only its own script and style run. */
export function reportContentSecurityPolicy(script: string, css: string): string {
  return [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(css)}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * The crawl report as one self-contained HTML page: inline style, script and data, and a
 * Content-Security-Policy that refuses every request, so it opens from `file://` or a mail
 * attachment and never touches the network.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * const state = openSqliteCrawlState('crawl.db', { resume: true, readOnly: true });
 * writeFileSync('report.html', renderReportHtml(await collectReportData(state)));
 * ```
 */
export function renderReportHtml(data: ReportData): string {
  const title = escapeHtml(`Crawl report: ${siteName(data.crawl.start)}`);
  const policy = reportContentSecurityPolicy(REPORT_SCRIPT, REPORT_CSS);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<meta name="generator" content="${escapeHtml(data.generator)}">`,
    `<title>${title}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    '<noscript><p>This report needs JavaScript: open it in a browser with JavaScript turned on.</p></noscript>',
    '<div id="report"><p>Loading the report…</p></div>',
    `<script type="application/json" id="report-data">${reportDataJson(data)}</script>`,
    `<script>${REPORT_SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
