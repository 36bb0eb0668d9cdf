// Bar charts as hand-written SVG. No chart library: a few horizontal bar charts and a
// histogram do not justify a dependency (and its size in every report), and hand-written SVG
// keeps every label as plain text under our own escaping rule.
//
// Bars are horizontal with the label above each bar, so long labels (URLs, content types)
// fit a 390 px phone. Widths are percentages of the SVG's own width, so the text keeps its
// size at any width instead of scaling with a viewBox.
import { el, svg, uniqueId } from './dom.ts';
import { formatCount } from './format.ts';
import type { Count } from './page-stats.ts';

const ROW = 38;
const LABEL_MAX = 80;
/** The longest bar, in percent of the width, leaving room for its value after it. */
const BAR_SPAN = 78;

export interface BarChartOptions {
  readonly title: string;
  readonly counts: readonly Count[];
  /** Header of the label column in the fallback table (`Depth`, `Status`). */
  readonly category: string;
  /** Header of the value column (`Pages`). */
  readonly measure: string;
}

/** A figure with the chart (role img, named by its title) and the same numbers as a table for screen readers. */
export function barChart(options: BarChartOptions): HTMLElement {
  const titleId = uniqueId('chart-title');
  const max = Math.max(1, ...options.counts.map((count) => count.value));
  const height = Math.max(1, options.counts.length) * ROW + 4;
  const chart = svg('svg', {
    class: 'bar-chart',
    role: 'img',
    width: '100%',
    height,
    'aria-labelledby': titleId,
  });
  chart.append(svg('title', { id: titleId }, options.title));
  options.counts.forEach((count, position) => {
    const top = position * ROW;
    const width = count.value === 0 ? 0 : Math.max(0.4, (BAR_SPAN * count.value) / max);
    const label =
      count.label.length > LABEL_MAX ? `${count.label.slice(0, LABEL_MAX - 1)}…` : count.label;
    chart.append(
      svg('text', { x: 0, y: top + 14, class: 'bar-label' }, label),
      svg('rect', { x: 0, y: top + 19, width: `${width}%`, height: 14, class: 'bar', rx: 2 }),
      svg(
        'text',
        { x: `${width}%`, dx: 6, y: top + 31, class: 'bar-value' },
        formatCount(count.value),
      ),
    );
  });
  if (options.counts.length === 0) {
    chart.append(svg('text', { x: 0, y: 16, class: 'bar-label' }, 'Nothing to show.'));
  }
  const table = el('table', { className: 'visually-hidden' }, [
    el('caption', { text: options.title }),
    el('thead', {}, [
      el('tr', {}, [
        el('th', { text: options.category, attrs: { scope: 'col' } }),
        el('th', { text: options.measure, attrs: { scope: 'col' } }),
      ]),
    ]),
    el(
      'tbody',
      {},
      options.counts.map((count) =>
        el('tr', {}, [
          el('th', { text: count.label, attrs: { scope: 'row' } }),
          el('td', { text: formatCount(count.value) }),
        ]),
      ),
    ),
  ]);
  return el('figure', { className: 'chart' }, [
    el('figcaption', { text: options.title, attrs: { 'aria-hidden': 'true' } }),
    chart,
    table,
  ]);
}
