import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { type Browser, launchBrowser, openWatchedPage } from './browser.ts';

let browser: Browser;
const folder = mkdtempSync(join(tmpdir(), 'waymark-browser-'));
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
  rmSync(folder, { recursive: true, force: true });
});

test('a watched page refuses and notes every request but its own document, and notes errors', async () => {
  const file = join(folder, 'page.html');
  writeFileSync(
    file,
    `<!doctype html><title>t</title><img src="http://127.0.0.1:9/x.png"><script>console.error('seen'); fetch('https://example.com/').catch(() => {});</script><h1>Hello</h1>`,
  );
  const { page, watch } = await openWatchedPage(browser, { width: 390 });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  assert.equal(await page.$eval('h1', (h) => h.textContent), 'Hello');
  // Text has width: Chromium found a font (without one, every glyph is 0 px wide).
  assert.ok((await page.$eval('h1', (h) => h.getBoundingClientRect().width)) > 10);
  await page.close();
  assert.deepEqual(watch.requests.sort(), ['http://127.0.0.1:9/x.png', 'https://example.com/']);
  assert.deepEqual(
    watch.errors.filter((e) => e === 'seen'),
    ['seen'],
  );
});
