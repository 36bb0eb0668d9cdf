// 1. Overview: what the crawl did, robots.txt and sitemaps at a glance, and one verdict line
// per problem class linking to where it is shown.
import type { ReportData, ReportRobots } from '../../report-data.ts';
import type { ReportAnalysis } from '../analysis.ts';
import { verdicts } from '../analysis.ts';
import { el, facts, section, urlLink } from '../dom.ts';
import { formatCount, formatDuration } from '../format.ts';

const LEVEL_WORD = { ok: 'OK', problem: 'Problem', note: 'Note' } as const;
const LEVEL_MARK = { ok: '✓', problem: '✗', note: 'i' } as const;

export function robotsOutcome(robots: ReportRobots): string {
  const status = robots.status === null ? 'no answer' : `HTTP ${robots.status}`;
  if (robots.source === 'file') {
    const lines = robots.text === null ? 0 : robots.text.split(/\r\n|\r|\n/).length;
    return `${status}: read (${formatCount(lines)} lines)`;
  }
  if (robots.source === 'unavailable') return `${status}: none, so everything is allowed`;
  return robots.unreachableAllowed
    ? `${status}: unreachable, treated as absent (--robots-error allow)`
    : `${status}: unreachable, so nothing was crawled there (RFC 9309)`;
}

export function overviewSection(data: ReportData, analysis: ReportAnalysis): HTMLElement {
  const part = section('overview', 'Overview');
  const crawl = data.crawl;
  const leftOut = Object.values(crawl.skipped).reduce((sum, n) => sum + n, 0);
  const pairs: [string, Node | string][] = [
    ['Start URL', urlLink(crawl.start)],
    ['Pages fetched', formatCount(crawl.fetched)],
    ['Listed (in the new sitemap)', formatCount(crawl.listed)],
    ['Left out', formatCount(leftOut)],
    ['Errors', formatCount(crawl.errors)],
    ['URLs met', formatCount(data.pages.length)],
  ];
  if (crawl.notFetched > 0) pairs.push(['Left in the queue', formatCount(crawl.notFetched)]);
  if (crawl.depthCut > 0)
    pairs.push(['Links deeper than the maximum depth', formatCount(crawl.depthCut)]);
  pairs.push([
    'Time',
    crawl.durationMs === null
      ? 'not recorded (report from a saved state)'
      : formatDuration(crawl.durationMs),
  ]);
  pairs.push([
    'Rate',
    crawl.pagesPerSecond === null
      ? 'not recorded'
      : `${formatCount(crawl.pagesPerSecond, 1)} pages/s`,
  ]);
  pairs.push(['Finished', crawl.stoppedBy === null ? 'yes' : `stopped early: ${crawl.stoppedBy}`]);
  pairs.push(['robots.txt', crawl.respectRobots ? 'obeyed' : 'ignored (--no-robots)']);
  for (const robots of data.robots)
    pairs.push([`robots.txt of ${robots.origin}`, robotsOutcome(robots)]);
  const { read, notRead } = analysis.sitemap;
  pairs.push([
    'Sitemaps',
    `${formatCount(data.sitemaps.length)} found, ${formatCount(read)} read, ${formatCount(notRead)} not read`,
  ]);
  pairs.push(['User agent', `${crawl.userAgent} (robots.txt token: ${crawl.robotsAgent})`]);
  part.append(facts(pairs));

  part.append(el('h3', { text: 'Verdicts', id: 'verdicts' }));
  const list = el('ul', { className: 'verdicts' });
  for (const verdict of verdicts(data, analysis)) {
    list.append(
      el('li', { className: `verdict verdict-${verdict.level}` }, [
        el('span', {
          className: 'verdict-mark',
          text: LEVEL_MARK[verdict.level],
          attrs: { 'aria-hidden': 'true' },
        }),
        el('span', { className: 'visually-hidden', text: `${LEVEL_WORD[verdict.level]}: ` }),
        el('a', { text: verdict.text, attrs: { href: `#${verdict.target}` } }),
      ]),
    );
  }
  part.append(list);
  return part;
}
