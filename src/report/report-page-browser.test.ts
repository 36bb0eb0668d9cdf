// The report as a person sees it, in headless Chromium: sections and counts for the sample
// crawl, the All URLs table's filter, sort and CSV, the robots tester, hostile text, layout at
// phone and desktop widths, and a 100,000-row report that scrolls to its last row.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  type Browser,
  launchBrowser,
  openWatchedPage,
  type Page,
  type PageWatch,
  saveScreenshot,
} from '../test-support/browser.ts';
import { viewToCsv } from './client/csv.ts';
import { ALL_URL_COLUMNS, PAGE_SEARCH_COLUMNS, pageColumns } from './client/page-table-columns.ts';
import { TableModel, type TableQuery } from './client/table-query.ts';
import { renderReportHtml } from './render-report-html.ts';
import type { ReportData } from './report-data.ts';
import {
  generatedReport,
  HOSTILE_TITLE,
  SAMPLE_COUNTS,
  SAMPLE_ROBOTS_TXT,
  sampleReport,
} from './test-support/sample-report-data.ts';

const LARGE_ROWS = 100_000;
let browser: Browser;
const folder = mkdtempSync(join(tmpdir(), 'waymark-report-page-'));
const sample = sampleReport();
const large = generatedReport(LARGE_ROWS);

function writeReport(name: string, data: ReportData): string {
  const file = join(folder, name);
  writeFileSync(file, renderReportHtml(data));
  return pathToFileURL(file).href;
}
const sampleUrl = writeReport('sample.html', sample);
const largeUrl = writeReport('large.html', large);

before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
  rmSync(folder, { recursive: true, force: true });
});

interface OpenReport {
  readonly page: Page;
  readonly watch: PageWatch;
  readonly dialogs: string[];
}

/**
 * Opens a report and waits until its script has built the page. Blobs given to
 * URL.createObjectURL are kept in `window.__blobs` and download links are not followed, so
 * the CSV can be read back and nothing lands on disk.
 */
async function openReport(url: string, width: number): Promise<OpenReport> {
  const { page, watch } = await openWatchedPage(browser, { width, height: 900 });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.evaluateOnNewDocument(() => {
    const kept: Blob[] = [];
    (window as unknown as { __blobs: Blob[] }).__blobs = kept;
    const create = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (object: Blob | MediaSource) => {
      if (object instanceof Blob) kept.push(object);
      return create(object);
    };
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      if (!this.hasAttribute('download')) click.call(this);
    };
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('#report[data-ready]', { timeout: 60_000 });
  assert.equal(await page.$eval('#report', (root) => root.getAttribute('data-ready')), 'true');
  return { page, watch, dialogs };
}

function assertQuiet(opened: OpenReport): void {
  assert.deepEqual(opened.watch.errors, [], 'console errors');
  assert.deepEqual(opened.watch.requests, [], 'network requests');
  assert.deepEqual(opened.dialogs, [], 'dialogs');
}

/** The first-column texts of the rows a list shows, and its "n of N rows" line. */
async function listOf(page: Page, id: string): Promise<{ count: string; urls: string[] }> {
  return page.$eval(`#${id}`, (part) => ({
    count: part.querySelector('.row-count')?.textContent ?? '',
    urls: [...part.querySelectorAll('tbody tr:not(.spacer):not(.empty)')].map(
      (row) => row.querySelector('td')?.textContent ?? '',
    ),
  }));
}

async function waitForCount(page: Page, id: string, text: string): Promise<void> {
  await page.waitForFunction(
    (selector, expected) => document.querySelector(selector)?.textContent === expected,
    { timeout: 10_000 },
    `#${id} .row-count`,
    text,
  );
}

async function setField(page: Page, selector: string, value: string): Promise<void> {
  await page.$eval(
    selector,
    (field, text) => {
      (field as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement).value = text;
      field.dispatchEvent(
        new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }),
      );
    },
    value,
  );
}

async function filterOf(page: Page, tableId: string, label: string): Promise<string> {
  const id = await page.$eval(
    `#${tableId}`,
    (part, name) =>
      [...part.querySelectorAll('label.visually-hidden')]
        .find((l) => l.textContent === `Filter ${name}`)
        ?.getAttribute('for') ?? '',
    label,
  );
  assert.notEqual(id, '', `filter ${label}`);
  return `#${id}`;
}

async function clickSort(page: Page, tableId: string, label: string): Promise<void> {
  await page.$$eval(
    `#${tableId} th button.sort`,
    (buttons, name) => {
      const button = buttons.find((b) => b.firstChild?.textContent === name) as
        | HTMLButtonElement
        | undefined;
      button?.click();
    },
    label,
  );
}

test('each section is there with the sample crawl’s counts, hostile text stays text', async () => {
  const opened = await openReport(sampleUrl, 1440);
  const { page } = opened;
  assert.equal(await page.title(), 'Crawl report: example.com');
  assert.deepEqual(await page.$$eval('h2', (hs) => hs.map((h) => h.textContent)), [
    'Overview',
    'Indexability',
    'Sitemap vs crawl',
    'lastmod sanity',
    'robots.txt',
    'Structure',
    'All URLs',
  ]);
  const facts = await page.$$eval('#overview dl.facts dt', (dts) =>
    Object.fromEntries(dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])),
  );
  assert.equal(facts['Pages fetched'], '18');
  assert.equal(facts['Listed (in the new sitemap)'], String(SAMPLE_COUNTS.listed));
  assert.equal(facts['Left out'], '12');
  assert.equal(facts['Sitemaps'], '4 found, 3 read, 1 not read');
  assert.equal(
    facts['robots.txt of http://static.example.com'],
    'HTTP 503: unreachable, so nothing was crawled there (RFC 9309)',
  );
  const verdicts = await page.$$eval('#overview .verdict', (items) =>
    items.map((item) => ({
      level: item.className.replace('verdict verdict-', ''),
      text: item.querySelector('a')?.textContent,
      href: item.querySelector('a')?.getAttribute('href'),
    })),
  );
  assert.equal(verdicts.length, 21);
  assert.deepEqual(
    verdicts.find((v) => v.href === '#sitemap-not-indexable'),
    {
      level: 'problem',
      text: 'URLs in the sitemap that are not indexable: 2',
      href: '#sitemap-not-indexable',
    },
  );
  // Every verdict links to something on the page.
  for (const { href } of verdicts) assert.ok(await page.$(href ?? '#missing'), `${href}`);

  const lists: [string, readonly string[]][] = [
    ['sitemap-not-indexable', SAMPLE_COUNTS.listedNotIndexable],
    ['sitemap-redirect-4xx', SAMPLE_COUNTS.listedRedirectOr4xx],
    ['sitemap-orphans', SAMPLE_COUNTS.orphans],
    ['sitemap-missing', SAMPLE_COUNTS.missingFromSitemap],
    ['sitemap-several', SAMPLE_COUNTS.inSeveralSitemaps],
    ['lastmod-generation', SAMPLE_COUNTS.lastmodGenerationTime],
    ['lastmod-future', SAMPLE_COUNTS.lastmodFuture],
    ['lastmod-older', SAMPLE_COUNTS.lastmodOlder],
    ['lastmod-invalid', SAMPLE_COUNTS.lastmodInvalid],
    ['lastmod-date-only', SAMPLE_COUNTS.lastmodDateOnly],
    ['robots-blocked', SAMPLE_COUNTS.blocked],
  ];
  for (const [id, urls] of lists) {
    assert.deepEqual(
      await listOf(page, id),
      { count: `${urls.length} of ${urls.length} rows`, urls: [...urls] },
      id,
    );
  }
  assert.deepEqual(
    (await listOf(page, 'urls')).count,
    `${SAMPLE_COUNTS.rows} of ${SAMPLE_COUNTS.rows} rows`,
  );
  assert.deepEqual(
    (await listOf(page, 'indexability-list')).count,
    `${SAMPLE_COUNTS.rows} of ${SAMPLE_COUNTS.rows} rows`,
  );
  assert.deepEqual((await listOf(page, 'structure-redirects')).count, '1 of 1 rows');
  assert.match(
    await page.$eval('#sitemap-limits', (part) => part.textContent ?? ''),
    /sitemap-blog\.xml: 60,000 entries/,
  );
  const blockedRule = await page.$$eval('#robots-blocked tbody tr:not(.spacer)', (rows) =>
    rows.map((row) => [...row.querySelectorAll('td')].slice(2, 4).map((td) => td.textContent)),
  );
  assert.deepEqual(blockedRule, [
    ['Disallow: /private/', '2'],
    ['Disallow: /tmp', '3'],
    ['', ''],
  ]);
  const diagnostics = await page.$$eval('#sitemap-diagnostics details', (all) =>
    all.map((d) => ({
      summary: d.querySelector('summary')?.textContent,
      lines: [...d.querySelectorAll('tbody tr td:first-child')].map((td) => td.textContent),
    })),
  );
  assert.deepEqual(diagnostics, [
    { summary: 'https://example.com/sitemap-pages.xml (1)', lines: ['12'] },
    { summary: 'https://example.com/sitemap-blog.xml (5)', lines: ['1', '40'] },
  ]);

  // Charts: an SVG named by its title, and the same numbers in a table for screen readers.
  const charts = await page.$$eval('figure.chart', (figures) =>
    figures.map((figure) => ({
      title: figure.querySelector('svg title')?.textContent,
      labelled:
        figure.querySelector('svg')?.getAttribute('aria-labelledby') ===
        figure.querySelector('svg title')?.id,
      rows: [...figure.querySelectorAll('table tbody tr')].map((tr) => tr.textContent),
    })),
  );
  assert.deepEqual(
    charts.map((c) => c.title),
    [
      'Pages by indexability',
      'URLs by link depth',
      'URLs by HTTP status',
      'URLs by content type',
      'Pages by response time',
    ],
  );
  assert.ok(charts.every((c) => c.labelled));
  assert.deepEqual(charts[1]?.rows, ['02', '111', '28']);

  // The hostile title is a cell's text, and nothing it names exists as an element.
  const titles = await page.$$eval('#urls tbody td', (cells) => cells.map((td) => td.textContent));
  assert.ok(titles.includes(HOSTILE_TITLE));
  assert.equal(await page.$$eval('img', (images) => images.length), 0);
  await page.close();
  assertQuiet(opened);
});

test('All URLs: filters, search and sort change the rows shown, and the CSV is exactly the view', async () => {
  const opened = await openReport(sampleUrl, 1440);
  const { page } = opened;
  await setField(page, await filterOf(page, 'urls', 'Outcome'), 'v:error');
  await waitForCount(page, 'urls', '1 of 21 rows');
  assert.deepEqual((await listOf(page, 'urls')).urls, ['https://example.com/slow']);
  await setField(page, await filterOf(page, 'urls', 'Outcome'), '');
  await setField(page, await filterOf(page, 'urls', 'Status'), 'c:4');
  await waitForCount(page, 'urls', '1 of 21 rows');
  assert.deepEqual((await listOf(page, 'urls')).urls, ['https://example.com/gone']);
  await setField(page, await filterOf(page, 'urls', 'Status'), '');
  await setField(page, '#urls input.search', 'BLOG');
  await waitForCount(page, 'urls', '4 of 21 rows');
  assert.deepEqual((await listOf(page, 'urls')).urls, SAMPLE_COUNTS.blogRows);
  await setField(page, await filterOf(page, 'urls', 'Time (ms)'), '>=300');
  await waitForCount(page, 'urls', '3 of 21 rows');
  await setField(page, await filterOf(page, 'urls', 'Time (ms)'), '');
  await waitForCount(page, 'urls', '4 of 21 rows');

  await clickSort(page, 'urls', 'Time (ms)');
  assert.deepEqual((await listOf(page, 'urls')).urls, [
    'https://example.com/blog/post-3',
    'https://example.com/blog/',
    'https://example.com/blog/post-1',
    'https://example.com/blog/post-2',
  ]);
  await clickSort(page, 'urls', 'Time (ms)');
  const shown = (await listOf(page, 'urls')).urls;
  assert.deepEqual(shown, [
    'https://example.com/blog/post-2',
    'https://example.com/blog/post-1',
    'https://example.com/blog/',
    'https://example.com/blog/post-3',
  ]);
  const sortState = await page.$$eval('#urls th[aria-sort]', (ths) =>
    ths.map((th) => [th.textContent, th.getAttribute('aria-sort')]),
  );
  assert.deepEqual(sortState, [['Time (ms) ▼', 'descending']]);

  await page.$eval('#urls button.csv', (button) => (button as HTMLButtonElement).click());
  const csv = await page.evaluate(async () => {
    const blobs = (window as unknown as { __blobs: Blob[] }).__blobs;
    const last = blobs.at(-1);
    return last === undefined
      ? null
      : { type: last.type, bytes: [...new Uint8Array(await last.arrayBuffer())] };
  });
  assert.ok(csv !== null);
  assert.equal(csv.type, 'text/csv;charset=utf-8');
  const text = Buffer.from(csv.bytes).toString('utf8');
  assert.ok(text.startsWith('\ufeff'), 'a BOM, so spreadsheets read UTF-8');
  const query: TableQuery = {
    search: 'BLOG',
    filters: {},
    sort: { column: 'ms', direction: 'desc' },
  };
  const columns = pageColumns(...ALL_URL_COLUMNS);
  const expected = viewToCsv(
    sample.pages,
    columns,
    new TableModel(sample.pages, columns, PAGE_SEARCH_COLUMNS).view(query).indices,
  );
  assert.equal(text.slice(1), expected);
  assert.deepEqual(
    text
      .slice(1)
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]),
    shown,
  );
  // Formula injection: the title that starts with = is defused in the CSV.
  await setField(page, '#urls input.search', 'sale');
  await waitForCount(page, 'urls', '1 of 21 rows');
  await page.$eval('#urls button.csv', (button) => (button as HTMLButtonElement).click());
  const saleCsv = await page.evaluate(() =>
    (window as unknown as { __blobs: Blob[] }).__blobs.at(-1)?.text(),
  );
  assert.match(saleCsv ?? '', /,"'=HYPERLINK\(""http:\/\/evil\.example""\) Sale, ""50%"" off",/);
  await page.close();
  assertQuiet(opened);
});

test('the robots tester lists the URLs that flip when a rule or the agent changes', async () => {
  const opened = await openReport(sampleUrl, 1440);
  const { page } = opened;
  const tester = '#robots-tester fieldset[data-origin="https://example.com"]';
  const flipList = async () =>
    page.$$eval(`${tester} tbody tr:not(.spacer):not(.empty)`, (rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent).join(' | ')),
    );
  assert.equal(
    await page.$eval(`${tester} textarea`, (t) => (t as HTMLTextAreaElement).value),
    SAMPLE_ROBOTS_TXT,
  );
  assert.equal(
    await page.$eval(`${tester} input.robots-agent`, (i) => (i as HTMLInputElement).value),
    'waymark',
  );

  await setField(
    page,
    `${tester} textarea`,
    SAMPLE_ROBOTS_TXT.replace('User-agent: *\n', 'User-agent: *\nDisallow: /blog\n'),
  );
  await page.waitForFunction(
    (s) => document.querySelector(`${s} .tester-status`)?.textContent?.includes('4 now blocked'),
    { timeout: 10_000 },
    tester,
  );
  assert.deepEqual(
    await flipList(),
    SAMPLE_COUNTS.blogRows.map((url) => `now blocked | ${url} | Disallow: /blog | 2`),
  );

  // Back to the original file: nothing flips.
  await setField(page, `${tester} textarea`, SAMPLE_ROBOTS_TXT);
  await page.waitForFunction(
    (s) =>
      document
        .querySelector(`${s} .tester-status`)
        ?.textContent?.includes('0 now blocked, 0 now allowed'),
    { timeout: 10_000 },
    tester,
  );
  assert.deepEqual(await flipList(), []);

  // Another agent with a group of its own in an edited file.
  await setField(
    page,
    `${tester} textarea`,
    `${SAMPLE_ROBOTS_TXT}\nUser-agent: otherbot\nAllow: /\n`,
  );
  await setField(page, `${tester} input.robots-agent`, 'OtherBot/2.1');
  await page.waitForFunction(
    (s) => document.querySelector(`${s} .tester-status`)?.textContent?.includes('2 now allowed'),
    { timeout: 10_000 },
    tester,
  );
  assert.deepEqual(await flipList(), [
    'now allowed | https://example.com/private/data | Allow: / | 9',
    'now allowed | https://example.com/tmp/cache | Allow: / | 9',
  ]);
  await page.close();
  assertQuiet(opened);
});

test('the layout holds at 390 px (no page-wide horizontal scroll) and at 1440 px', async () => {
  for (const width of [390, 1440]) {
    const opened = await openReport(sampleUrl, width);
    const { page } = opened;
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    assert.ok(scrollWidth <= clientWidth, `${width} px: page is ${scrollWidth} px wide`);
    await saveScreenshot(page, `report-page-${width}`);
    if (width === 390) {
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
      await saveScreenshot(page, 'report-page-390-dark');
      await page.emulateMediaFeatures([]);
      // Print: the summaries, charts and small tables print; the scrolling lists and the tester do not.
      await page.emulateMediaType('print');
      const shown = await page.evaluate(() =>
        Object.fromEntries(
          [
            '#overview .facts',
            'figure.chart svg',
            '.table-scroller',
            '.tester',
            'nav',
            '.data-table .print-only',
          ].map((selector) => [
            selector,
            getComputedStyle(document.querySelector(selector) as Element).display !== 'none',
          ]),
        ),
      );
      assert.deepEqual(shown, {
        '#overview .facts': true,
        'figure.chart svg': true,
        '.table-scroller': false,
        '.tester': false,
        nav: false,
        '.data-table .print-only': true,
      });
      await page.emulateMediaType('screen');
    }
    await page.close();
    assertQuiet(opened);
  }
});

test(`a ${LARGE_ROWS.toLocaleString('en')}-row report opens, draws only what is in view, and scrolls to its last row`, async () => {
  const opened = await openReport(largeUrl, 1440);
  const { page } = opened;
  await waitForCount(page, 'urls', '100,000 of 100,000 rows');
  assert.ok((await page.$$eval('*', (all) => all.length)) < 20_000, 'no list draws all its rows');
  await page.$eval('#urls .table-scroller', (scroller) => {
    scroller.scrollTop = scroller.scrollHeight;
  });
  const lastUrl = large.pages.at(-1)?.[0];
  await page.waitForFunction(
    (expected) =>
      [...document.querySelectorAll('#urls tbody tr:not(.spacer) td:first-child')].at(-1)
        ?.textContent === expected,
    { timeout: 10_000 },
    lastUrl,
  );
  const lastRow = await page.$eval('#urls tbody tr:not(.spacer):last-of-type, #urls tbody', () =>
    [...document.querySelectorAll('#urls tbody tr:not(.spacer)')]
      .at(-1)
      ?.getAttribute('aria-rowindex'),
  );
  assert.equal(lastRow, String(LARGE_ROWS + 2));
  await page.close();
  assertQuiet(opened);
});

test('data of another version gives a clear message instead of a broken page', async () => {
  const url = writeReport('other-version.html', {
    ...sample,
    version: 999,
  } as unknown as ReportData);
  const { page, watch } = await openWatchedPage(browser, { width: 1440 });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('#report[data-ready]');
  assert.equal(await page.$eval('#report', (root) => root.getAttribute('data-ready')), 'error');
  assert.match(
    await page.$eval('#report [role=alert]', (alert) => alert.textContent ?? ''),
    /reads report data version 1, and the data is version 999/,
  );
  await page.close();
  assert.deepEqual(watch.requests, []);
});
