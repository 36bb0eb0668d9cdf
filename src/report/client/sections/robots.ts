// 5. robots.txt: each origin's file as the crawl read it, every blocked URL with the rule and
// line that decided, and the tester.
import type { ReportData, ReportRobots } from '../../report-data.ts';
import type { ReportAnalysis } from '../analysis.ts';
import { el, facts, section, urlLink } from '../dom.ts';
import { formatCount } from '../format.ts';
import { robotsOutcome } from './overview.ts';
import { pageList } from './page-list.ts';
import { robotsTester } from './robots-tester-view.ts';

export function robotsSection(data: ReportData, analysis: ReportAnalysis): HTMLElement {
  const part = section('robots', 'robots.txt');
  if (!data.crawl.respectRobots) {
    part.append(
      el('p', {
        className: 'problem',
        text: 'This crawl ignored robots.txt (--no-robots): nothing was blocked, and the tester shows what robots.txt would have done.',
      }),
    );
  }
  for (const robots of data.robots) part.append(robotsFile(robots));
  if (data.robots.length === 0)
    part.append(el('p', { className: 'none', text: 'No robots.txt was fetched.' }));
  part.append(
    pageList({
      id: 'robots-blocked',
      data,
      indices: analysis.blocked,
      title: 'Blocked URLs',
      definition:
        'URLs the crawl did not fetch because robots.txt disallowed them (with the deciding rule and its line) or could not be read.',
      columns: ['url', 'reason', 'rule', 'ruleLine', 'depth', 'inlinks'],
    }),
  );
  const tester = section('robots-tester', 'Tester', 'h3');
  tester.append(
    el('p', {
      className: 'definition',
      text: 'Edit a robots.txt or the user agent: the list shows at once which crawled URLs of that origin would flip between allowed and blocked, compared with the file the crawl read and its own user agent. The check runs here, with the crawler’s own robots.txt engine.',
    }),
  );
  for (const robots of data.robots) tester.append(robotsTester(data, robots));
  part.append(tester);
  return part;
}

function robotsFile(robots: ReportRobots): HTMLElement {
  const part = el('div', { className: 'robots-file' }, [
    el('h3', { text: robots.origin }),
    facts([
      ['URL', urlLink(robots.url)],
      ['Outcome', robotsOutcome(robots)],
      ...(robots.detail === null ? [] : [['Detail', robots.detail] as [string, string]]),
    ]),
  ]);
  if (robots.text !== null) {
    const lines = robots.text.split(/\r\n|\r|\n/);
    if (lines.at(-1) === '') lines.pop();
    const width = String(lines.length).length;
    const numbered = lines
      .map((line, index) => `${String(index + 1).padStart(width)}  ${line}`)
      .join('\n');
    part.append(
      el('details', { className: 'robots-text' }, [
        el('summary', { text: `The file (${formatCount(lines.length)} lines)` }),
        el('pre', { text: numbered }),
      ]),
    );
  }
  return part;
}
