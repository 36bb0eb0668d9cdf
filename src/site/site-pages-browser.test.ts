// What a person sees of `waymark serve` in a browser: the real server on 127.0.0.1, its
// pages opened in headless Chromium at a phone's and a desktop's width. Screenshots are
// kept as artefacts (test-artifacts/), never compared.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type Browser,
  launchBrowser,
  openWatchedPage,
  type Page,
  type PageWatch,
  saveScreenshot,
} from '../test-support/browser.ts';
import { type SiteServer, startSiteServer } from './index.ts';
import { type ContentRoot, makeContentRoot } from './test-support/content-root.ts';

const WIDTHS = [390, 1440] as const;
const LONG_WORD = 'Donaudampfschifffahrtsgesellschaftskapitän'.repeat(4);

const FILES: Record<string, string> = {
  'about.md':
    '---\ntitle: Front matter title\nsecret: FRONT-MATTER-SECRET\n---\n# About the café\n\nWe roast coffee. See [setting up](guides/setup.md).\n',
  'menu.md': '# Menu heading\n\nEspresso, filter.\n',
  'menu.md.meta.yaml': 'alias: menu\ntitle: Our menu\n',
  'zed.md': '# Zed \\<script\\>alert(1)\\</script\\> & <b>co</b>\n\nText.\n',
  'guides/setup.md': `# Setting up\n\n${LONG_WORD}\n\n\`\`\`\n${'const wide = 1; '.repeat(30)}\n\`\`\`\n\n| ${Array.from({ length: 12 }, (_, i) => `column ${i}`).join(' | ')} |\n|${' --- |'.repeat(12)}\n| ${Array.from({ length: 12 }, () => 'value').join(' | ')} |\n\nSee https://example.com/${'a'.repeat(120)} for more.\n`,
  'guides/advanced/tuning.md': 'Tuning the grinder\n==================\n\nFiner for espresso.\n',
  'guides/10-later.md': '# Step 10\n',
  'guides/2-earlier.md': '# Step 2\n',
  'notes/no-heading.md': 'Just a paragraph, with no heading at all.\n',
  'notes/quiet.md': '# Quiet\n',
  'notes/quiet.md.meta.yaml': 'noindex: true\n',
};

/** The listing as a reader sees it: each group's folder heading and its link texts. */
interface Group {
  readonly folder: string;
  readonly names: readonly string[];
}

let browser: Browser;
let root: ContentRoot;
let server: SiteServer;
before(async () => {
  root = makeContentRoot(FILES);
  server = await startSiteServer({ root: root.dir, port: 0, host: '127.0.0.1' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
  root?.remove();
});

/** Opens `path` at `width`, noting every request the page makes. */
async function open(
  path: string,
  width: number,
): Promise<{ page: Page; watch: PageWatch; requested: string[] }> {
  const { page, watch } = await openWatchedPage(browser, { width, allow: server.origin });
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  const response = await page.goto(server.origin + path, { waitUntil: 'load' });
  assert.equal(response?.status(), 200, path);
  return { page, watch, requested };
}

/** What every page must hold, whatever it shows. */
async function assertSoundPage(
  page: Page,
  watch: PageWatch,
  requested: readonly string[],
  width: number,
): Promise<void> {
  assert.deepEqual(watch.errors, [], 'no console error');
  assert.deepEqual(watch.requests, [], 'no request outside the test server');
  assert.deepEqual(requested, [page.url()], 'nothing but the page itself was loaded');
  const viewport = await page.$eval('meta[name="viewport"]', (m) => m.getAttribute('content'));
  assert.match(viewport ?? '', /width=device-width/);
  const layout = await page.evaluate(() => ({
    textWidth: document.querySelector('main')?.getBoundingClientRect().width ?? 0,
    textHeight: document.querySelector('main')?.getBoundingClientRect().height ?? 0,
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    bodyWidth: document.body.getBoundingClientRect().width,
  }));
  // Text is really laid out (a browser without fonts draws nothing and overflows nothing).
  assert.ok(layout.textWidth > 200 && layout.textHeight > 20, JSON.stringify(layout));
  assert.ok(layout.scrollWidth <= layout.innerWidth, `no horizontal scrolling at ${width} px`);
  if (width >= 1000) {
    // A readable measure: the text column stays narrow on a wide screen.
    assert.ok(layout.bodyWidth < 900, `text column ${layout.bodyWidth} px at ${width} px`);
  }
}

describe('waymark serve in a browser', () => {
  for (const width of WIDTHS) {
    test(`the listing at ${width} px: first headings, grouped by folder, escaped`, async () => {
      const { page, watch, requested } = await open('/', width);
      try {
        const groups: Group[] = await page.$$eval('main section', (sections) =>
          sections.map((section) => ({
            folder: section.querySelector('h2')?.textContent ?? '',
            names: [...section.querySelectorAll('li a')].map((a) => a.textContent ?? ''),
          })),
        );
        assert.deepEqual(groups, [
          {
            folder: '',
            names: ['About the café', 'Our menu', 'Zed <script>alert(1)</script> & co'],
          },
          { folder: 'guides/', names: ['Setting up', 'Step 2', 'Step 10'] },
          { folder: 'guides/advanced/', names: ['Tuning the grinder'] },
          { folder: 'notes/', names: ['no-heading'] },
        ]);
        assert.equal(
          await page.$$eval('script', (s) => s.length),
          0,
          'the heading injects nothing',
        );
        assert.equal(await page.$eval('h1', (h) => h.textContent), 'Pages');
        const menu = await page.$eval('a[href="/menu"]', (a) => a.textContent);
        assert.equal(menu, 'Our menu', "the sidecar's title wins over the heading");
        await assertSoundPage(page, watch, requested, width);
        await saveScreenshot(page, `serve-listing-${width}`);
      } finally {
        await page.close();
      }
    });

    test(`document pages at ${width} px: a link back to /, no front matter, no overflow`, async () => {
      const listing = await open('/', width);
      const links = await listing.page.$$eval('main li a', (as) =>
        as.map((a) => [a.getAttribute('href') ?? '', a.textContent ?? ''] as const),
      );
      await listing.page.close();
      assert.equal(links.length, 8);
      for (const [href, name] of links) {
        const { page, watch, requested } = await open(href, width);
        try {
          const back = await page.$$eval('a[href="/"]', (as) => as.length);
          assert.ok(back >= 1, `${href} links back to /`);
          const text = await page.evaluate(() => document.body.innerText);
          assert.doesNotMatch(text, /FRONT-MATTER-SECRET|title: Front matter/, href);
          await assertSoundPage(page, watch, requested, width);
          const slug = name
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')
            .slice(0, 30);
          await saveScreenshot(page, `serve-page-${slug.replace(/^-|-$/g, '')}-${width}`);
        } finally {
          await page.close();
        }
      }
    });
  }

  test('the link back goes to the listing; titles name the documents', async () => {
    const { page } = await open('/', 390);
    try {
      await Promise.all([page.waitForNavigation(), page.click('a[href="/menu"]')]);
      assert.equal(await page.title(), 'Our menu');
      await Promise.all([page.waitForNavigation(), page.click('nav a[href="/"]')]);
      assert.equal(new URL(page.url()).pathname, '/');
      assert.equal(await page.title(), 'Pages');
      const about = await page.$eval('a[href^="/id/"]', (a) => a.getAttribute('href') ?? '');
      await page.goto(server.origin + about, { waitUntil: 'load' });
      assert.equal(await page.title(), 'About the café');
    } finally {
      await page.close();
    }
  });

  test('light and dark follow the reader’s setting', async () => {
    const colors: Record<string, { background: string; color: string }> = {};
    for (const scheme of ['light', 'dark'] as const) {
      const { page, watch } = await open('/', 390);
      try {
        await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
        colors[scheme] = await page.evaluate(() => {
          const style = getComputedStyle(document.body);
          return { background: style.backgroundColor, color: style.color };
        });
        assert.deepEqual(watch.errors, []);
        await saveScreenshot(page, `serve-listing-${scheme}`);
      } finally {
        await page.close();
      }
    }
    assert.equal(colors['light']?.background, 'rgb(255, 255, 255)');
    assert.equal(colors['dark']?.background, 'rgb(13, 17, 23)');
    assert.notEqual(colors['light']?.color, colors['dark']?.color);
  });
});
