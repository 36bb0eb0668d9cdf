// The report page's script: reads the data embedded in the page and builds every section.
// Bundled into one IIFE by build-report-assets.ts and inlined by renderReportHtml.
import { REPORT_DATA_VERSION, type ReportData } from '../report-data.ts';
import { siteName } from '../site-name.ts';
import { analyseReport } from './analysis.ts';
import { el } from './dom.ts';
import { allUrlsSection } from './sections/all-urls.ts';
import { indexabilitySection } from './sections/indexability.ts';
import { lastmodSection } from './sections/lastmod.ts';
import { overviewSection } from './sections/overview.ts';
import { robotsSection } from './sections/robots.ts';
import { sitemapSection } from './sections/sitemap.ts';
import { structureSection } from './sections/structure.ts';

const NAV: readonly (readonly [string, string])[] = [
  ['overview', 'Overview'],
  ['indexability', 'Indexability'],
  ['sitemap', 'Sitemap vs crawl'],
  ['lastmod', 'lastmod'],
  ['robots', 'robots.txt'],
  ['structure', 'Structure'],
  ['urls', 'All URLs'],
];

function readData(): ReportData {
  const script = document.getElementById('report-data');
  const parsed: unknown = JSON.parse(script?.textContent ?? 'null');
  const version = (parsed as { version?: unknown } | null)?.version;
  if (version !== REPORT_DATA_VERSION) {
    throw new Error(
      `this page reads report data version ${REPORT_DATA_VERSION}, and the data is version ${String(version)}: make the report again with this waymark`,
    );
  }
  return parsed as ReportData;
}

function render(root: HTMLElement): void {
  const data = readData();
  const analysis = analyseReport(data);
  const site = siteName(data.crawl.start);
  const header = el('header', { className: 'report-header' }, [
    el('h1', { text: `Crawl report: ${site}` }),
    el('p', { className: 'generated', text: `Made ${data.generatedAt} by ${data.generator}.` }),
    el('nav', { attrs: { 'aria-label': 'Sections' } }, [
      el(
        'ul',
        {},
        NAV.map(([id, label]) =>
          el('li', {}, [el('a', { text: label, attrs: { href: `#${id}` } })]),
        ),
      ),
    ]),
  ]);
  const main = el('main', {}, [
    overviewSection(data, analysis),
    indexabilitySection(data),
    sitemapSection(data, analysis),
    lastmodSection(data, analysis),
    robotsSection(data, analysis),
    structureSection(data, analysis),
    allUrlsSection(data),
  ]);
  root.replaceChildren(header, main);
  root.setAttribute('data-ready', 'true');
  // The fragment's target exists only now: honour a link like report.html#robots-tester.
  if (location.hash.length > 1) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

const root = document.getElementById('report');
if (root !== null) {
  try {
    render(root);
  } catch (error) {
    root.replaceChildren(
      el('p', {
        className: 'fatal',
        attrs: { role: 'alert' },
        text: `This report could not be shown: ${error instanceof Error ? error.message : String(error)}`,
      }),
    );
    root.setAttribute('data-ready', 'error');
  }
}
