// The README's example crawl, made into a report by the real command line and opened from
// file:// in headless Chromium: what the README promises (and shows as a screenshot, which
// this test takes: test-artifacts/report-example-1440.png) holds end to end.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runCliForTest } from '../cli/test-support/run-cli.ts';
import {
  type Browser,
  launchBrowser,
  openWatchedPage,
  saveScreenshot,
} from '../test-support/browser.ts';
import type { ReportData } from './report-data.ts';
import { embeddedReportData } from './test-support/embedded-report-data.ts';

const EXAMPLE_ROOT = fileURLToPath(new URL('../../examples/content/', import.meta.url));
const SECTIONS = ['overview', 'indexability', 'sitemap', 'lastmod', 'robots', 'structure', 'urls'];

const dir = mkdtempSync(join(tmpdir(), 'waymark-report-example-'));
const report = join(dir, 'report.html');
let browser: Browser;
let data: ReportData;

before(async () => {
  // The README's second command, with --report.
  const crawled = await runCliForTest([
    'crawl',
    '--serve',
    EXAMPLE_ROOT,
    '--out',
    join(dir, 'sitemap.xml'),
    '--report',
    report,
    '--quiet',
  ]);
  assert.equal(crawled.code, 0, crawled.stderr);
  data = embeddedReportData(readFileSync(report, 'utf8'));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

for (const width of [1440, 390]) {
  test(`the example crawl's report opens at ${width} px with every section, quietly`, async () => {
    const { page, watch } = await openWatchedPage(browser, { width });
    await page.goto(pathToFileURL(report).href, { waitUntil: 'load' });
    await page.waitForSelector('#report[data-ready="true"]');
    for (const id of SECTIONS) {
      const heading = await page.$eval(
        `#${id}`,
        (section) => section.querySelector('h2')?.textContent,
      );
      assert.ok(heading, `section #${id} has its heading`);
    }
    const overview = await page.$eval('#overview', (section) => (section as HTMLElement).innerText);
    assert.ok(data.crawl.listed > 0);
    assert.match(overview, new RegExp(`^${data.crawl.listed}$`, 'm'), 'the listed count shows');
    const shown = await page.$$eval('#urls tbody tr:not(.spacer):not(.empty)', (rows) =>
      rows.map((row) => row.querySelector('td')?.textContent ?? ''),
    );
    assert.deepEqual(
      [...shown].sort(),
      data.pages.map((row) => row[0]).sort(),
      'the All URLs table shows every URL of the crawl',
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 0, `no horizontal scrolling at ${width} px (${overflow} px over)`);
    await saveScreenshot(page, `report-example-${width}`);
    // What the README shows (docs/report-screenshot.png is a copy): the top of the page.
    if (width === 1440) await saveScreenshot(page, 'report-example-top', { fullPage: false });
    await page.close();
    assert.deepEqual(watch.errors, []);
    assert.deepEqual(watch.requests, []);
  });
}
