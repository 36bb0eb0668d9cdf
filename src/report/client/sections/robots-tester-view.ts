// The robots.txt tester of one origin: a textarea with the site's file, a user-agent field,
// and the URLs whose verdict flips, recomputed as the person types.
import type { RobotsTxt } from '../../../robots/index.ts';
import type { ReportData, ReportRobots } from '../../report-data.ts';
import { DataTable } from '../data-table.ts';
import { debounce, el, uniqueId } from '../dom.ts';
import { formatCount } from '../format.ts';
import {
  flippedVerdicts,
  initialTesterText,
  originalRobots,
  rowsOfOrigin,
  testedRobots,
  testerAgent,
  type VerdictFlip,
  verdicts,
} from '../robots-tester.ts';
import type { ColumnSpec } from '../table-query.ts';

const EDIT_PAUSE_MS = 150;

interface FlipRow {
  readonly change: string;
  readonly url: string;
  readonly rule: string | null;
  readonly line: number | null;
}

const FLIP_COLUMNS: ColumnSpec<FlipRow>[] = [
  { id: 'change', label: 'Change', filter: 'select', width: 130, value: (r) => r.change },
  { id: 'url', label: 'URL', filter: 'text', width: 340, link: true, value: (r) => r.url },
  { id: 'rule', label: 'Deciding rule', filter: 'text', width: 220, value: (r) => r.rule },
  { id: 'line', label: 'Line', filter: 'range', width: 70, numeric: true, value: (r) => r.line },
];

function describe(flip: VerdictFlip): string {
  if (flip.rule !== null)
    return `${flip.rule.directive === 'allow' ? 'Allow' : 'Disallow'}: ${flip.rule.pattern}`;
  return `(${flip.reason})`;
}

export function robotsTester(data: ReportData, robots: ReportRobots): HTMLElement {
  const urls = data.pages.map((row) => row[0]);
  const textId = uniqueId('robots-text');
  const agentId = uniqueId('robots-agent');
  const textarea = el('textarea', {
    id: textId,
    className: 'robots-editor',
    attrs: { rows: '10', spellcheck: 'false', autocomplete: 'off' },
  });
  textarea.value = initialTesterText(robots);
  const agentInput = el('input', {
    id: agentId,
    className: 'robots-agent',
    attrs: { type: 'text', autocomplete: 'off', spellcheck: 'false' },
  });
  agentInput.value = data.crawl.robotsAgent;
  const status = el('p', { className: 'tester-status', attrs: { 'aria-live': 'polite' } });
  const table = new DataTable<FlipRow>({
    caption: `Verdicts that flip on ${robots.origin}`,
    rows: [],
    columns: FLIP_COLUMNS,
    searchIds: ['url'],
    csvName: 'waymark-robots-tester',
  });

  // The baseline is the same for every edit: computed once, on the first edit.
  let baseline: { rows: number[]; original: RobotsTxt; allowed: Uint8Array } | null = null;
  const update = () => {
    if (baseline === null) {
      const rows = rowsOfOrigin(urls, robots.origin);
      const original = originalRobots(robots);
      baseline = {
        rows,
        original,
        allowed: verdicts(original, urls, rows, data.crawl.robotsAgent),
      };
    }
    const agent = testerAgent(agentInput.value);
    if (agent === '') {
      agentInput.setAttribute('aria-invalid', 'true');
      status.textContent =
        'The user agent must start with a product token (letters, - and _), such as Googlebot.';
      return;
    }
    agentInput.removeAttribute('aria-invalid');
    const tested = testedRobots(robots, baseline.original, textarea.value);
    const flips = flippedVerdicts(tested, agent, urls, baseline.rows, baseline.allowed);
    const blocked = flips.filter((flip) => !flip.nowAllowed).length;
    const problems = tested.diagnostics.filter((d) => d.severity !== 'info').length;
    status.textContent = `Testing as “${agent}” over ${formatCount(baseline.rows.length)} URLs: ${formatCount(blocked)} now blocked, ${formatCount(flips.length - blocked)} now allowed.${problems > 0 ? ` The file has ${formatCount(problems)} problems (first: line ${tested.diagnostics.find((d) => d.severity !== 'info')?.line}).` : ''}`;
    table.setRows(
      flips.map((flip) => ({
        change: flip.nowAllowed ? 'now allowed' : 'now blocked',
        url: urls[flip.row] as string,
        rule: describe(flip),
        line: flip.rule?.line ?? null,
      })),
    );
  };
  const later = debounce(update, EDIT_PAUSE_MS);
  textarea.addEventListener('input', later);
  agentInput.addEventListener('input', later);
  status.textContent = 'Nothing changed yet: edit the file or the user agent.';
  const note =
    robots.source === 'file'
      ? null
      : el('p', {
          className: 'definition',
          text:
            robots.source === 'unavailable'
              ? 'This origin had no robots.txt (everything allowed): type one to see what it would block.'
              : 'This origin’s robots.txt was unreachable: type a file to test it as if the site served it.',
        });
  return el('fieldset', { className: 'tester', attrs: { 'data-origin': robots.origin } }, [
    el('legend', { text: robots.origin }),
    note,
    el('label', { text: 'robots.txt', attrs: { for: textId } }),
    textarea,
    el('label', { text: 'User agent', attrs: { for: agentId } }),
    agentInput,
    status,
    table.element,
  ]);
}
