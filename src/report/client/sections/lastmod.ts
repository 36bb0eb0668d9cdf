// 4. lastmod sanity: the mistakes that make search engines ignore a site's lastmod.
import type { ReportData } from '../../report-data.ts';
import type { ReportAnalysis } from '../analysis.ts';
import { el, facts, section } from '../dom.ts';
import { formatCount } from '../format.ts';
import { LASTMOD_CLOCK_SKEW_MS, LASTMOD_IDENTICAL_MIN } from '../lastmod-checks.ts';
import { pageList } from './page-list.ts';

export function lastmodSection(data: ReportData, analysis: ReportAnalysis): HTMLElement {
  const part = section('lastmod', 'lastmod sanity');
  const found = analysis.lastmod;
  const skewMinutes = LASTMOD_CLOCK_SKEW_MS / 60_000;
  part.append(
    el('p', {
      className: 'definition',
      text: 'Search engines use a sitemap’s lastmod only while it is consistently accurate. These checks look at the lastmod the site’s sitemaps give each URL.',
    }),
    facts([
      ['URLs with a lastmod', formatCount(found.withLastmod)],
      ['Distinct values', formatCount(found.distinct)],
      [
        'Commonest value',
        found.commonest === null
          ? 'none'
          : `${found.commonest.value} (${formatCount(found.commonest.count)} URLs)`,
      ],
      [
        '“Now” for these checks',
        found.reference === null
          ? 'unknown'
          : `${new Date(found.reference.at).toISOString()} (${found.reference.what})`,
      ],
    ]),
  );
  const identical = section('lastmod-identical', 'All values identical', 'h3');
  identical.append(
    el('p', {
      className: found.allIdentical ? 'problem' : 'none',
      text: found.allIdentical
        ? `All ${formatCount(found.withLastmod)} lastmod values are ${found.commonest?.value ?? ''}: a lastmod that never differs says nothing.`
        : found.distinct > 1
          ? 'No: the values differ.'
          : `Too few to tell: it takes ${LASTMOD_IDENTICAL_MIN.withTime} equal values with a time, or ${LASTMOD_IDENTICAL_MIN.dateOnly} equal dates.`,
    }),
  );
  part.append(identical);
  const columns = ['url', 'sitemapLastmod', 'lastModified', 'title'] as const;
  part.append(
    pageList({
      id: 'lastmod-generation',
      data,
      indices: found.generationTime,
      columns: [...columns],
      title: 'Equal to the generation time',
      definition: `A lastmod with a time within ${skewMinutes} minutes of when the crawl fetched a sitemap file: the sitemap writes “now” instead of when the page changed.`,
    }),
    pageList({
      id: 'lastmod-future',
      data,
      indices: found.future,
      columns: [...columns],
      title: 'In the future',
      definition: `Later than the sitemap fetch by more than ${skewMinutes} minutes (a date-only value: its day has not begun in any time zone).`,
    }),
    pageList({
      id: 'lastmod-older',
      data,
      indices: found.olderThanLastModified,
      columns: [...columns],
      title: 'Older than the page’s Last-Modified',
      definition:
        'The page’s Last-Modified header is at least a second later than its lastmod (a date-only value: later than the end of that day in every time zone): the page changed and the sitemap does not say so.',
    }),
    pageList({
      id: 'lastmod-invalid',
      data,
      indices: found.invalid,
      columns: [...columns],
      title: 'Not a W3C Datetime',
      definition: 'Values that are not W3C Datetime (YYYY-MM-DD, or with a time and a zone).',
    }),
    pageList({
      id: 'lastmod-date-only',
      data,
      indices: found.dateOnly,
      columns: [...columns],
      title: 'Date only',
      definition:
        'Values without a time, where a time was at hand (other values have one, or the page’s Last-Modified gives one): valid, but a page that changes twice a day cannot say so.',
    }),
  );
  return part;
}
