// A real headless Chromium for the tests that check what a person sees (the crawl report,
// the `waymark serve` pages). It comes from npm: `@sparticuz/chromium` ships a compressed
// Chromium build inside its package, so `npm ci` alone is enough on a fresh machine.
// WAYMARK_CHROMIUM names another binary instead (for example Debian's /usr/bin/chromium).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export type { Browser, Page };

const CHROMIUM_VARIABLE = 'WAYMARK_CHROMIUM';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Where the screenshots of the browser tests go (kept as artefacts, never compared pixel by
 * pixel). WAYMARK_TEST_ARTIFACTS moves it.
 */
export const ARTIFACTS_DIR = process.env['WAYMARK_TEST_ARTIFACTS'] ?? join(ROOT, 'test-artifacts');

/**
 * The package unpacks its Chromium into os.tmpdir(), which the test runner gives each run
 * fresh and checks is empty at the end. So unpack it once into node_modules/.cache instead,
 * under the package's version: a partial folder per process, renamed into place, so two test
 * files starting at once never see half a binary.
 */
async function bundledChromium(): Promise<{ path: string; fontConfig: string }> {
  const packageFile = join(ROOT, 'node_modules/@sparticuz/chromium/package.json');
  const { version } = JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string };
  const folder = join(ROOT, 'node_modules/.cache', `waymark-chromium-${version}`);
  if (!existsSync(join(folder, 'chromium'))) {
    const partial = `${folder}.partial-${process.pid}`;
    mkdirSync(partial, { recursive: true });
    const tmpdir = process.env['TMPDIR'];
    process.env['TMPDIR'] = partial;
    try {
      await chromium.executablePath();
    } finally {
      if (tmpdir === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = tmpdir;
    }
    try {
      renameSync(partial, folder);
    } catch {
      // Another process put its copy there first: use that one.
      rmSync(partial, { recursive: true, force: true });
    }
  }
  return { path: join(folder, 'chromium'), fontConfig: fontConfig(folder) };
}

/**
 * The package's own fonts.conf names Lambda's folders (/var/task/fonts, /tmp/fonts), not
 * where the fonts were unpacked: without this one, Chromium finds no font, every glyph is
 * 0 px wide and screenshots come out blank. Its cache stays beside the fonts, out of /tmp.
 */
function fontConfig(folder: string): string {
  const path = join(folder, 'waymark-fonts.conf');
  if (!existsSync(path)) {
    const partial = `${path}.${process.pid}`;
    writeFileSync(
      partial,
      [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
        '<fontconfig>',
        `  <dir>${join(folder, 'fonts', 'fonts')}</dir>`,
        '  <dir>/usr/share/fonts</dir>',
        `  <cachedir>${join(folder, 'fontconfig-cache')}</cachedir>`,
        '</fontconfig>',
        '',
      ].join('\n'),
    );
    renameSync(partial, path);
  }
  return path;
}

/** Starts headless Chromium; close it with `browser.close()` in an `after` hook. */
export async function launchBrowser(): Promise<Browser> {
  const chosen = process.env[CHROMIUM_VARIABLE];
  if (chosen !== undefined && chosen !== '') {
    return puppeteer.launch({
      executablePath: chosen,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'],
    });
  }
  const { path, fontConfig } = await bundledChromium();
  return puppeteer.launch({
    executablePath: path,
    headless: true,
    args: chromium.args,
    // The package's own fonts, so a machine without any still renders text.
    env: { ...process.env, FONTCONFIG_FILE: fontConfig },
  });
}

/** What a page did while it was open: everything a test asserts "did not happen" on. */
export interface PageWatch {
  /** Console messages of type error, and uncaught exceptions. */
  readonly errors: string[];
  /** Every request the page tried other than its own document, all of them refused. */
  readonly requests: string[];
}

/** How wide the page is, and which addresses besides its own document it may load. */
export interface WatchedPageOptions {
  readonly width: number;
  readonly height?: number;
  /** Requests to URLs starting with this (a test server's origin) are let through. */
  readonly allow?: string;
}

/**
 * A new page that may load nothing but its own document (and `allow`): every other request
 * (images, scripts, fonts, fetch, beacons) is refused and noted in `requests`.
 */
export async function openWatchedPage(
  browser: Browser,
  options: WatchedPageOptions,
): Promise<{ page: Page; watch: PageWatch }> {
  const page = await browser.newPage();
  await page.setViewport({ width: options.width, height: options.height ?? 900 });
  const watch: PageWatch = { errors: [], requests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') watch.errors.push(message.text());
  });
  page.on('pageerror', (error) => {
    watch.errors.push(error instanceof Error ? error.message : String(error));
  });
  await page.setRequestInterception(true);
  let documentUrl: string | undefined;
  page.on('request', (request) => {
    const url = request.url();
    if (documentUrl === undefined && request.isNavigationRequest()) documentUrl = url;
    const allowed = options.allow !== undefined && url.startsWith(options.allow);
    if (allowed || url === documentUrl || url.startsWith('data:') || url.startsWith('blob:')) {
      void request.continue();
      return;
    }
    watch.requests.push(url);
    void request.abort('blockedbyclient');
  });
  return { page, watch };
}

/**
 * Saves a screenshot under ARTIFACTS_DIR as `name`.png (the whole page, unless `fullPage`
 * is false: only what is in view) and returns its path.
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  options: { readonly fullPage?: boolean } = {},
): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
  return path;
}
