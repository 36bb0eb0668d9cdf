import { printable } from '../../shared/printable.ts';
import type { LastmodFinding } from '../../sitemap/lastmod-sanity.ts';
import { jsonLine } from './json-line.ts';

/** Examples shown in a text line; --json carries every example the finding kept. */
const TEXT_EXAMPLES = 3;

/**
 * A lastmod finding as `sitemap validate` prints it, like a diagnostic without a line (it is
 * about the whole file): `where: severity: message, e.g. URL (lastmod), ... [code]`, one
 * line safe for the terminal (the examples quote the sitemap).
 */
export function lastmodFindingText(where: string, finding: LastmodFinding): string {
  const shown = finding.examples
    .slice(0, TEXT_EXAMPLES)
    .map((e) => `${e.loc} (${e.lastmod})`)
    .join(', ');
  const more = finding.count > TEXT_EXAMPLES && shown !== '' ? ', ...' : '';
  const examples = shown === '' ? '' : `; e.g. ${shown}${more}`;
  return `${printable(`${where}: ${finding.severity}: ${finding.message}${examples} [${finding.code}]`)}\n`;
}

/**
 * A lastmod finding as one JSON line: the diagnostic fields (line and column null: it is
 * about the whole file) plus `count` and `examples` (`{loc, lastmod}`).
 */
export function lastmodFindingJson(file: string, finding: LastmodFinding): string {
  const { severity, code, message, count, examples } = finding;
  return jsonLine({
    file,
    line: null,
    column: null,
    severity,
    code,
    message,
    count,
    examples: examples.map(({ loc, lastmod }) => ({ loc, lastmod })),
  });
}

/**
 * Lines for the crawl summary: one per finding, `lastmod: severity: message`, then the first
 * examples indented as the summary shows URLs.
 */
export function lastmodFindingLines(finding: LastmodFinding): string[] {
  return [
    `lastmod ${finding.severity}: ${finding.message} [${finding.code}]`,
    ...finding.examples.slice(0, TEXT_EXAMPLES).map((e) => `    ${e.loc} (${e.lastmod})`),
  ];
}
